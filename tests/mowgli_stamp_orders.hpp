// The MOWGLI stamp orders, rows the po-earlier stamp, columns the later, as
// markdown excerpts that test_stamps.cpp and the MOWGLI oracle's test read:
// - "### 3.3": the 12-stamp order (sto) of RDMA^WAIT_RMW, RMW paper §3.1, Fig. 9,
//   as a table of ✓/✗/SN and as a block of Y/N/SN in the same order;
// - "### 3.4": the 11-stamp order of RDMA^WAIT, LOCO §3.1, Fig. 10: the same table
//   without aNAR. Our text of that figure lost one cell per row; the bold G10 ✗ is
//   the one cell rebuilt by decision (doc/model-notes.md N4);
// - "### 4.6": the cells RMW paper §3.2's ippo adds to ppo (its B1, B5, G11, J11).
// Literal data, so the tests need nothing outside the repository.
#pragma once

namespace rdmacheck::testing {

inline constexpr const char* kMowgliStampOrders = R"md(
### 3.3 The 12-stamp order of RDMA^WAIT_RMW ([RMW] Fig. 9)

| earlier \ later | 1 aCR | 2 aCW | 3 aCAS | 4 aMF | 5 aWT | 6 aNLR | 7 aNRW | 8 aNAR | 9 aNRR | 10 aNLW | 11 aRF | 12 aGF |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
| A aCR   | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| B aCW   | ✗ | ✓ | ✓ | ✓ | ✗ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| C aCAS  | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| D aMF   | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| E aWT   | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| F aNLR  | ✗ | ✗ | ✗ | ✗ | ✗ | SN | SN | SN | SN | SN | SN | SN |
| G aNRW  | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | SN | SN | SN | SN | ✗ | SN |
| H aNAR  | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | SN | SN | SN | SN | SN | SN |
| I aNRR  | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | SN | SN | SN |
| J aNLW  | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | SN | ✗ | SN |
| K aRF   | ✗ | ✗ | ✗ | ✗ | ✗ | SN | SN | SN | SN | SN | SN | SN |
| L aGF   | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |

Machine-readable form (Y ordered, N not ordered, SN same node), same row and column order:

    #      aCR aCW aCAS aMF aWT aNLR aNRW aNAR aNRR aNLW aRF aGF
    aCR    Y   Y   Y    Y   Y   Y    Y    Y    Y    Y    Y   Y
    aCW    N   Y   Y    Y   N   Y    Y    Y    Y    Y    Y   Y
    aCAS   Y   Y   Y    Y   Y   Y    Y    Y    Y    Y    Y   Y
    aMF    Y   Y   Y    Y   Y   Y    Y    Y    Y    Y    Y   Y
    aWT    Y   Y   Y    Y   Y   Y    Y    Y    Y    Y    Y   Y
    aNLR   N   N   N    N   N   SN   SN   SN   SN   SN   SN  SN
    aNRW   N   N   N    N   N   N    SN   SN   SN   SN   N   SN
    aNAR   N   N   N    N   N   N    SN   SN   SN   SN   SN  SN
    aNRR   N   N   N    N   N   N    N    N    N    SN   SN  SN
    aNLW   N   N   N    N   N   N    N    N    N    SN   N   SN
    aRF    N   N   N    N   N   SN   SN   SN   SN   SN   SN  SN
    aGF    Y   Y   Y    Y   Y   Y    Y    Y    Y    Y    Y   Y

### 3.4 The 11-stamp order of RDMA^WAIT ([LOCO] Fig. 10): reconstructed

Result: [LOCO] Fig. 10 = the table of §3.3 **with row H and column 8 (aNAR) deleted**. No
other cell differs. One data file (12 stamps) serves both models.

| earlier \ later | 1 aCR | 2 aCW | 3 aCAS | 4 aMF | 5 aWT | 6 aNLR | 7 aNRW | 8 aNRR | 9 aNLW | 10 aRF | 11 aGF |
|---|---|---|---|---|---|---|---|---|---|---|---|
| A aCR   | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| B aCW   | ✗ | ✓ | ✓ | ✓ | ✗ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| C aCAS  | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| D aMF   | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| E aWT   | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
| F aNLR  | ✗ | ✗ | ✗ | ✗ | ✗ | SN | SN | SN | SN | SN | SN |
| G aNRW  | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | SN | SN | SN | **✗** | SN |
| H aNRR  | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | SN | SN | SN |
| I aNLW  | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | ✗ | SN | ✗ | SN |
| J aRF   | ✗ | ✗ | ✗ | ✗ | ✗ | SN | SN | SN | SN | SN | SN |
| K aGF   | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |

### 4.6 Issue order ([RMW] §3.2) [clean]

- `ippo = ppo ∪ ([aCW] ; po ; [aCR ∪ aWT]) ∪ ⋃_n ([aNRW_n ∪ aNLW_n] ; po ; [aRF_n])`.
  This puts back cells B1, B5, G11 and J11 (RMW numbering) as *issue* orders.
)md";

}  // namespace rdmacheck::testing
