//! The board binary's core clock and watchdog: set by `firmware/src/bin/nucleo`, and read by
//! the bench where it judges time on the virtual board (a glitch trial's hang limit), so the
//! two cannot drift apart.

/// SYSCLK (and HCLK): 84 MHz from the HSI through the PLL. APB2 runs at it (the ADC clock /4
/// = 21 MHz, under the 36 MHz of DS10693's ADC characteristics), APB1 at half.
pub const SYSCLK_HZ: u32 = 84_000_000;

/// The independent watchdog's timeout. The slowest main-loop iteration measured on the
/// virtual board is a press that makes the machine's move (its self-check and a full sweep of
/// the nodes, 480-cycle samples at 10 bits): see firmware/README.md, "Watchdog"; this leaves a
/// wide margin over it and is still short enough that a hung board is back in its start state
/// before a visitor gives up on it.
pub const WATCHDOG_MS: u32 = 1_000;
