//! Log macros: defmt when the `defmt` feature is on (the board binary), nothing otherwise (host
//! tests, which read the same facts from the values the application returns).

#[cfg(feature = "defmt")]
macro_rules! info {
    ($($arg:tt)*) => { defmt::info!($($arg)*) };
}

#[cfg(not(feature = "defmt"))]
macro_rules! info {
    ($fmt:literal $(, $arg:expr)* $(,)?) => {{ $( let _ = &$arg; )* }};
}

#[cfg(feature = "defmt")]
macro_rules! log_warn {
    ($($arg:tt)*) => { defmt::warn!($($arg)*) };
}

#[cfg(not(feature = "defmt"))]
macro_rules! log_warn {
    ($fmt:literal $(, $arg:expr)* $(,)?) => {{ $( let _ = &$arg; )* }};
}

/// Wraps a `Display` value for defmt (`{}`), or leaves it as it is without defmt.
#[cfg(feature = "defmt")]
macro_rules! display {
    ($value:expr) => {
        defmt::Display2Format(&$value)
    };
}

#[cfg(not(feature = "defmt"))]
macro_rules! display {
    ($value:expr) => {
        $value
    };
}

pub(crate) use {display, info, log_warn as warn};
