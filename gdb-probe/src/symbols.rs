//! An ELF's symbols a debugger names things by, read once for every reader: its functions (to
//! name the function a PC is in, and which ran) and RTT's control block (`_SEGGER_RTT`).

use object::{Object, ObjectSymbol, SymbolKind};

/// The symbol of RTT's control block.
pub const RTT_SYMBOL: &str = "_SEGGER_RTT";

/// The address of RTT's control block in `file`, if the firmware has RTT.
pub fn rtt_control_block<'data>(file: &impl Object<'data>) -> Option<u32> {
    file.symbols()
        .find(|s| s.name() == Ok(RTT_SYMBOL))
        .and_then(|s| u32::try_from(s.address()).ok())
}

/// A function of the ELF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Its first address (the Thumb bit cleared).
    pub address: u32,
    /// Its size in bytes.
    pub size: u32,
    /// Its demangled name, without the hash (`firmware::self_check::Tracker::check`).
    pub name: String,
}

/// The ELF's function symbols (of a size), by address: one per address, where aliases share
/// one the first in the symbol table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Functions(Vec<Function>);

impl Functions {
    /// The functions of `file`.
    pub fn of<'data>(file: &impl Object<'data>) -> Functions {
        let mut functions: Vec<Function> = file
            .symbols()
            .filter(|s| s.kind() == SymbolKind::Text && s.size() > 0)
            .filter_map(|s| {
                Some(Function {
                    address: (s.address() as u32) & !1,
                    size: s.size() as u32,
                    name: format!("{:#}", rustc_demangle::demangle(s.name().ok()?)),
                })
            })
            .collect();
        // A stable sort: of aliases (one code, several names: the board ELF's
        // `__defmt_default_timestamp`, `DefaultPreInit`, ...) the first in the symbol table is
        // kept, the name the virtual board's coverage file has always printed.
        functions.sort_by_key(|f| f.address);
        functions.dedup_by_key(|f| f.address);
        Functions(functions)
    }

    /// The functions of the ELF `bytes`; none if it is not one.
    pub fn parse(bytes: &[u8]) -> Functions {
        object::File::parse(bytes)
            .map(|file| Functions::of(&file))
            .unwrap_or_default()
    }

    /// The function holding `pc`.
    pub fn at(&self, pc: u32) -> Option<&Function> {
        self.index_at(pc).map(|i| &self.0[i])
    }

    /// The index in [`Functions::as_slice`] of the function holding `pc`.
    pub fn index_at(&self, pc: u32) -> Option<usize> {
        let i = self.0.partition_point(|f| f.address <= pc).checked_sub(1)?;
        let f = &self.0[i];
        (pc < f.address + f.size).then_some(i)
    }

    /// Every function, by address.
    pub fn as_slice(&self) -> &[Function] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn function(address: u32, size: u32, name: &str) -> Function {
        Function {
            address,
            size,
            name: name.into(),
        }
    }

    #[test]
    fn a_pc_is_in_the_function_that_spans_it_and_between_functions_in_none() {
        let table = Functions(vec![function(0x100, 0x10, "a"), function(0x120, 4, "b")]);
        assert_eq!(table.at(0x100).map(|f| &*f.name), Some("a"));
        assert_eq!(table.at(0x10f).map(|f| &*f.name), Some("a"));
        assert_eq!(table.at(0x110), None);
        assert_eq!(table.at(0xff), None);
        assert_eq!(table.at(0x123).map(|f| &*f.name), Some("b"));
        assert_eq!(table.at(0x124), None);
    }

    #[test]
    fn garbage_has_no_functions() {
        assert_eq!(Functions::parse(b"not an elf"), Functions::default());
    }
}
