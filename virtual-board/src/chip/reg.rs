//! A register file: the registers a model keeps as plain storage, by offset, with their reset
//! values and names. Anything not in the table is refused, never read as zero.

use crate::stop::{Access, Refusal};

/// Stored registers of one peripheral.
#[derive(Debug)]
pub struct Regs {
    table: &'static [(u32, &'static str, u32)],
    values: Vec<u32>,
}

/// The name of the register at `offset` in `table`.
pub fn name(table: &[(u32, &'static str, u32)], offset: u32) -> Option<&'static str> {
    table.iter().find(|r| r.0 == offset).map(|r| r.1)
}

impl Regs {
    /// The registers of `table` (offset, name, reset value) at their reset values.
    pub fn new(table: &'static [(u32, &'static str, u32)]) -> Regs {
        Regs {
            table,
            values: table.iter().map(|r| r.2).collect(),
        }
    }

    fn index(&self, offset: u32) -> Option<usize> {
        self.table.iter().position(|r| r.0 == offset)
    }

    /// The value at `offset`; a register not in the table is a fault (the board fills in
    /// the peripheral's name and address).
    pub fn get(&self, offset: u32) -> Result<u32, Refusal> {
        self.index(offset)
            .map(|i| self.values[i])
            .ok_or_else(|| unmodelled(offset, None))
    }

    /// Stores `value` at `offset`.
    pub fn set(&mut self, offset: u32, value: u32) -> Result<(), Refusal> {
        let i = self
            .index(offset)
            .ok_or_else(|| unmodelled(offset, Some(value)))?;
        self.values[i] = value;
        Ok(())
    }

    /// The value at `offset`, which the model knows is in the table.
    pub fn peek(&self, offset: u32) -> u32 {
        self.get(offset).unwrap_or(0)
    }
}

/// An access at `offset` of a peripheral that is not modelled: the board completes it.
pub fn unmodelled(offset: u32, written: Option<u32>) -> Refusal {
    Refusal::Unmodelled(Access {
        address: offset,
        offset,
        peripheral: None,
        register: None,
        written,
        size: 4,
    })
}
