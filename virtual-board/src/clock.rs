//! Virtual time: the core's cycles, one an instruction, at the board binary's SYSCLK (set by
//! its RCC code, and named once in `firmware::timing` for everyone who judges time on it).

/// Core cycles per virtual second.
pub const PER_SECOND: u64 = firmware::timing::SYSCLK_HZ as u64;

/// Core cycles per virtual millisecond.
pub const PER_MS: u64 = PER_SECOND / 1_000;

/// The clock in MHz, for what the board prints.
pub const MHZ: u64 = PER_SECOND / 1_000_000;
