// The process's memory bound (limits.hpp): a thread that polls /proc and
// interrupts the solvers past the bound.
#include <fcntl.h>
#include <malloc.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <sys/resource.h>
#include <system_error>
#include <thread>
#include <unistd.h>

#include "rdmacheck/limits.hpp"

namespace rdmacheck::memory_watch {

namespace {

struct Sizes {
    size_t virtualMegabytes = 0, residentMegabytes = 0;
};

// One read of a file kept open (each read of /proc regenerates it): the
// watch reads it every period and each test once, which through a stream
// cost 4% of the 487 x86 tests' time.
// /proc/self/statm, kept open; opened again at the next reading when an open
// failed (out of descriptors, say), so the watch is not left blind.
int statmFile() {
    static std::atomic<int> kept{-1};
    int fd = kept.load();
    if (fd >= 0) return fd;
    fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int none = -1;
    if (kept.compare_exchange_strong(none, fd)) return fd;
    close(fd);  // another thread kept one first
    return none;
}

Sizes readSizes() {
    const int statm = statmFile();
    char text[128];
    const ssize_t n = statm < 0 ? -1 : pread(statm, text, sizeof text - 1, 0);
    if (n <= 0) return {};
    text[n] = '\0';
    unsigned long long pages = 0, resident = 0;
    if (std::sscanf(text, "%llu %llu", &pages, &resident) != 2) return {};
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return {static_cast<size_t>(pages) * page >> 20, static_cast<size_t>(resident) * page >> 20};
}

// ulimit -v, MiB (0: none).
size_t addressSpaceLimit() {
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
    return static_cast<size_t>(limit.rlim_cur >> 20);
}

// 90% of ulimit -v, MiB (0: none): past it malloc, and Z3, would soon fail.
size_t addressSpaceMegabytes() { return addressSpaceLimit() * 9 / 10; }

// Never destroyed: the watching thread runs until the process ends.
struct Watch {
    std::atomic<size_t> bound{0};
    std::atomic<uint64_t> trips{0};
    std::atomic<uint64_t> settled{0};  // trips when the allocator last gave memory back
    std::atomic<bool> lastByAddressSpace{false};  // the last trip passed the address-space bound, not --max-memory's
    std::mutex mutex;  // guards stops and nextId
    std::map<size_t, std::function<void()>> stops;
    size_t nextId = 0;
    const size_t addressSpace = addressSpaceMegabytes();

    bool over() {
        const size_t b = bound.load();
        if (b == 0) return false;
        const Sizes s = readSizes();
        if (s.residentMegabytes > b) return lastByAddressSpace = false, true;
        if (addressSpace > 0 && s.virtualMegabytes > addressSpace) return lastByAddressSpace = true, true;
        return false;
    }

    void run() {
        for (;;) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            if (!over()) continue;
            ++trips;
            std::lock_guard<std::mutex> lock(mutex);
            for (auto& [id, stop] : stops) stop();
        }
    }
};

Watch& theWatch() {
    static Watch* watch = [] {
        Watch* w = new Watch;
        try {
            std::thread([w] { w->run(); }).detach();
        } catch (const std::system_error&) {
            // No thread to be had: each test still measures once (ResourceGuard).
        }
        return w;
    }();
    return *watch;
}

}  // namespace

void watch(size_t megabytes) {
    Watch& w = theWatch();
    w.bound = megabytes;
    const uint64_t trips = w.trips.load();
    if (w.settled.exchange(trips) != trips) release();
}

void release() { malloc_trim(0); }

uint64_t trips() { return theWatch().trips.load(); }

size_t onTrip(std::function<void()> stop) {
    Watch& w = theWatch();
    std::lock_guard<std::mutex> lock(w.mutex);
    w.stops.emplace(w.nextId, std::move(stop));
    return w.nextId++;
}

void forget(size_t id) {
    Watch& w = theWatch();
    std::lock_guard<std::mutex> lock(w.mutex);
    w.stops.erase(id);
}

std::string boundText(size_t megabytes) {
    if (!theWatch().lastByAddressSpace)
        return "memory limit of " + std::to_string(megabytes) + " MiB reached (--max-memory)";
    return "memory limit reached: 90% of the address-space limit, " + std::to_string(addressSpaceLimit()) +
           " MiB (ulimit -v); --max-memory is " + std::to_string(megabytes) + " MiB";
}

size_t residentMegabytes() { return readSizes().residentMegabytes; }

}  // namespace rdmacheck::memory_watch
