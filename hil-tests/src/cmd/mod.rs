//! One module per subcommand.

pub mod calibrate;
pub mod doctor;
pub mod run;
