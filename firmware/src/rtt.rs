//! The RTT layout: one definition of the channels, their sizes and modes, shared by the board
//! binary and the QEMU binary (and read by the bench, which finds the channels by number).
//!
//! - up 0, "defmt": the logs, 1 KiB, `NoBlockSkip`: a log frame that does not fit is dropped
//!   rather than stalling the machine (the decoder finds the next frame);
//! - up 1, "bench": replies to the bench, 512 B, `NoBlockSkip`: the machine never blocks on a
//!   host that went away. A reply is at most [`MAX_FRAME`](crate::protocol::MAX_FRAME) (128 B),
//!   so one fits whenever the host has read its earlier replies; one that does not fit is
//!   dropped whole and the bench gets it again by sending the command again with the same
//!   number ([`Server`](crate::Server) keeps the last reply);
//! - down 0, "bench": commands, 129 B (one frame of the longest).
//!
//! The QEMU binary adds a pair for its emulated ADC (up 2 / down 1, "adc"); the macro takes
//! such extra channels after the board's.

/// Up channel of the defmt logs.
pub const DEFMT_UP: usize = 0;
/// Up channel of the bench's replies.
pub const BENCH_UP: usize = 1;
/// Down channel of the bench's commands.
pub const BENCH_DOWN: usize = 0;
/// Up channel of the QEMU binary's ADC requests.
pub const ADC_UP: usize = 2;
/// Down channel of the answers to them.
pub const ADC_DOWN: usize = 1;

/// Bytes of the defmt up channel.
pub const DEFMT_UP_SIZE: usize = 1024;
/// Bytes of the bench up channel: three replies of [`MAX_FRAME`](crate::protocol::MAX_FRAME)
/// whole (an RTT buffer keeps one byte free), more of the usual size.
pub const BENCH_UP_SIZE: usize = 4 * crate::protocol::MAX_FRAME;
/// Bytes of the bench down channel: one command of [`MAX_FRAME`](crate::protocol::MAX_FRAME),
/// plus the byte an RTT buffer keeps free.
pub const BENCH_DOWN_SIZE: usize = crate::protocol::MAX_FRAME + 1;
/// Bytes of each QEMU ADC channel: two requests or answers.
pub const ADC_SIZE: usize = 2 * crate::protocol::MAX_FRAME;

/// `rtt_init!` with the board's channels, then `up: { … }` / `down: { … }` extra ones
/// (numbered from [`ADC_UP`] / [`ADC_DOWN`]); the caller's crate must depend on `rtt-target`.
#[macro_export]
macro_rules! rtt_channels {
    (up: { $($up:tt)* } down: { $($down:tt)* }) => {
        ::rtt_target::rtt_init! {
            up: {
                0: {
                    size: $crate::rtt::DEFMT_UP_SIZE,
                    mode: ::rtt_target::ChannelMode::NoBlockSkip,
                    name: "defmt"
                }
                1: {
                    size: $crate::rtt::BENCH_UP_SIZE,
                    mode: ::rtt_target::ChannelMode::NoBlockSkip,
                    name: "bench"
                }
                $($up)*
            }
            down: {
                0: {
                    size: $crate::rtt::BENCH_DOWN_SIZE,
                    name: "bench"
                }
                $($down)*
            }
        }
    };
}
