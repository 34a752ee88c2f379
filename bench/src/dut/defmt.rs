//! defmt log frames decoded against the firmware's ELF, for the targets whose firmware logs in
//! defmt (PIL over semihosting stdout, HIL over RTT up channel 0).

use defmt_decoder::{DecodeError, StreamDecoder, Table};

/// Why a firmware's defmt stream cannot be decoded.
#[derive(Debug, thiserror::Error)]
pub enum DefmtError {
    /// The ELF's defmt table does not parse (defmt-decoder's error).
    #[error("cannot read the ELF's defmt table: {0}")]
    Table(Box<dyn std::error::Error + Send + Sync>),
    /// The ELF has no defmt table.
    #[error("the ELF has no defmt table (was it built with defmt?)")]
    NoTable,
}

/// A decoder for one firmware's defmt stream, and the lines it decoded.
pub struct DefmtLog {
    decoder: Box<dyn StreamDecoder + Send + Sync>,
    lines: Vec<String>,
}

impl std::fmt::Debug for DefmtLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DefmtLog")
            .field("lines", &self.lines.len())
            .finish_non_exhaustive()
    }
}

impl DefmtLog {
    /// A decoder for the ELF `bytes`; an error names what is missing.
    pub fn new(elf: &[u8]) -> Result<DefmtLog, DefmtError> {
        let table = Table::parse(elf)
            .map_err(|e| DefmtError::Table(e.into()))?
            .ok_or(DefmtError::NoTable)?;
        // The decoder borrows the table for the whole run; one table per target.
        let table: &'static Table = Box::leak(Box::new(table));
        Ok(DefmtLog {
            decoder: table.new_stream_decoder(),
            lines: Vec::new(),
        })
    }

    /// Takes bytes of the stream and decodes every whole frame in them.
    pub fn received(&mut self, bytes: &[u8]) {
        self.decoder.received(bytes);
        loop {
            match self.decoder.decode() {
                Ok(frame) => {
                    let level = frame.level().map_or("", |l| l.as_str());
                    self.lines.push(
                        format!("{level} {}", frame.display_message())
                            .trim()
                            .to_string(),
                    );
                }
                Err(DecodeError::UnexpectedEof) => return,
                Err(DecodeError::Malformed) => {
                    self.lines.push("(malformed defmt frame)".to_string());
                    return;
                }
            }
        }
    }

    /// The last error line decoded and not yet taken (a panic's message, when the firmware
    /// stopped before the bench took its logs).
    pub fn last_error(&self) -> Option<&str> {
        self.lines
            .iter()
            .rev()
            .find(|l| l.starts_with("error "))
            .map(String::as_str)
    }

    /// The lines decoded since the last call.
    pub fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.lines)
    }
}
