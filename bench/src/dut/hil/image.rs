//! What the chip's flash holds before the bench flashes it, sector by sector against the ELF's
//! loadable bytes: this image whole, erased, another image, or part of this one, which is what a
//! download cut mid-way leaves (the connection lost while the flash algorithm ran: the sectors
//! before it written, one erased or half written, the rest erased). The bench says so in one
//! line and flashes again.

use object::read::elf::{ElfFile32, ProgramHeader};

/// A sector's bytes against the image's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sector {
    /// As the image has them.
    Whole,
    /// Erased throughout.
    Erased,
    /// Some bytes as the image has them, the others erased: programming stopped in it.
    HalfWritten,
    /// Bytes of something else.
    Other,
}

/// What flash holds, against the image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// The image, whole.
    Whole,
    /// Erased where the image goes.
    Blank,
    /// Another image (or this one, changed).
    Another,
    /// Part of the image: the first sector that is not whole, numbered from the start of flash.
    Interrupted {
        /// Its number.
        sector: usize,
        /// How it is.
        how: Sector,
    },
}

impl Found {
    /// The one line the bench says before flashing, when flash says something went wrong.
    pub fn line(&self) -> Option<String> {
        match self {
            Found::Interrupted { sector, how } => Some(format!(
                "flash holds no whole image (sector {sector} {}: an interrupted download?): \
                 flashing again",
                match how {
                    Sector::HalfWritten => "half written",
                    _ => "erased",
                }
            )),
            _ => None,
        }
    }
}

/// One sector: where it starts and its bytes, the image's and the chip's, where the image has
/// any.
pub struct Span {
    /// Its number from the start of flash.
    pub number: usize,
    /// The image's bytes in it.
    pub image: Vec<u8>,
    /// The chip's at the same addresses.
    pub chip: Vec<u8>,
}

/// How one sector's bytes compare with the image's (`erased`: an erased byte's value).
pub fn sector(image: &[u8], chip: &[u8], erased: u8) -> Sector {
    if image == chip {
        Sector::Whole
    } else if chip.iter().all(|&b| b == erased) {
        Sector::Erased
    } else if image.iter().zip(chip).all(|(&i, &c)| i == c || c == erased) {
        Sector::HalfWritten
    } else {
        Sector::Other
    }
}

/// What the sectors say together.
pub fn found(sectors: &[(usize, Sector)]) -> Found {
    if sectors.iter().all(|(_, s)| *s == Sector::Whole) {
        return Found::Whole;
    }
    if sectors.iter().all(|(_, s)| *s == Sector::Erased) {
        return Found::Blank;
    }
    if sectors.iter().any(|(_, s)| *s == Sector::Other) {
        return Found::Another;
    }
    // Some of the image, the rest erased or half written.
    let &(sector, how) = sectors
        .iter()
        .find(|(_, s)| *s != Sector::Whole)
        .expect("not all whole");
    Found::Interrupted { sector, how }
}

/// The ELF's loadable bytes (at their load addresses) within `range`.
pub fn loadable(elf: &[u8], range: &std::ops::Range<u64>) -> Vec<(u64, Vec<u8>)> {
    let Ok(file) = ElfFile32::<object::LittleEndian>::parse(elf) else {
        return Vec::new();
    };
    let endian = file.endian();
    file.elf_program_headers()
        .iter()
        .filter(|h| h.p_type(endian) == object::elf::PT_LOAD && h.p_filesz(endian) > 0)
        .filter_map(|h| {
            let at = u64::from(h.p_paddr(endian));
            let data = h.data(endian, elf).ok()?;
            range.contains(&at).then(|| (at, data.to_vec()))
        })
        .collect()
}

/// The sector holding `offset` from the start of flash, as a flash algorithm describes them
/// (each description holds from its offset to the next's): its number and its bounds.
pub fn sector_of(
    descriptions: &[(u64, u64)],
    length: u64,
    offset: u64,
) -> Option<(usize, std::ops::Range<u64>)> {
    let mut number = 0;
    let mut at = 0;
    while at < length {
        let size = descriptions
            .iter()
            .rev()
            .find(|(start, _)| *start <= at)
            .map(|(_, size)| *size)
            .filter(|&size| size > 0)?;
        if (at..at + size).contains(&offset) {
            return Some((number, at..at + size));
        }
        at += size;
        number += 1;
    }
    None
}

/// Reads what the chip holds where `elf` goes in the flash of `session`'s target and says what
/// it is; `None` when the target has no flash algorithm to describe its sectors.
pub fn look(session: &mut probe_rs::Session, elf: &[u8]) -> Option<Result<Found, probe_rs::Error>> {
    use probe_rs::MemoryInterface;
    let algorithm = session
        .target()
        .flash_algorithms
        .iter()
        .find(|a| a.default)
        .or_else(|| session.target().flash_algorithms.first())?;
    let properties = &algorithm.flash_properties;
    let range = properties.address_range.clone();
    let erased = properties.erased_byte_value;
    let descriptions: Vec<(u64, u64)> = properties
        .sectors
        .iter()
        .map(|s| (s.address, s.size))
        .collect();
    let mut spans: Vec<Span> = Vec::new();
    let mut core = match session.core(0) {
        Ok(core) => core,
        Err(e) => return Some(Err(e)),
    };
    for (at, bytes) in loadable(elf, &range) {
        let mut chip = vec![0u8; bytes.len()];
        if let Err(e) = core.read(at, &mut chip) {
            return Some(Err(e));
        }
        for (i, (&b, &c)) in bytes.iter().zip(&chip).enumerate() {
            let (number, _) = sector_of(
                &descriptions,
                range.end - range.start,
                at + i as u64 - range.start,
            )?;
            match spans.iter_mut().find(|s| s.number == number) {
                Some(span) => {
                    span.image.push(b);
                    span.chip.push(c);
                }
                None => spans.push(Span {
                    number,
                    image: vec![b],
                    chip: vec![c],
                }),
            }
        }
    }
    spans.sort_by_key(|s| s.number);
    let sectors: Vec<(usize, Sector)> = spans
        .iter()
        .map(|s| (s.number, sector(&s.image, &s.chip, erased)))
        .collect();
    if sectors.is_empty() {
        return None;
    }
    Some(Ok(found(&sectors)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The STM32F446's sectors (RM0390 3.3, table 4): four of 16 KB, one of 64 KB, three of
    /// 128 KB, as probe-rs's STM32F4 algorithm describes them.
    const F446: [(u64, u64); 3] = [(0, 0x4000), (0x10000, 0x10000), (0x20000, 0x20000)];

    #[test]
    fn sectors_are_numbered_as_the_reference_manual_numbers_them() {
        assert_eq!(sector_of(&F446, 0x80000, 0).unwrap().0, 0);
        assert_eq!(
            sector_of(&F446, 0x80000, 0xC000).unwrap(),
            (3, 0xC000..0x10000)
        );
        assert_eq!(sector_of(&F446, 0x80000, 0x1FFFF).unwrap().0, 4);
        assert_eq!(
            sector_of(&F446, 0x80000, 0x20000).unwrap(),
            (5, 0x20000..0x40000)
        );
        assert_eq!(sector_of(&F446, 0x80000, 0x7FFFF).unwrap().0, 7);
        assert_eq!(sector_of(&F446, 0x80000, 0x80000), None);
    }

    #[test]
    fn a_sector_is_whole_erased_half_written_or_other() {
        let image = [1, 2, 3, 4];
        assert_eq!(sector(&image, &[1, 2, 3, 4], 0xFF), Sector::Whole);
        assert_eq!(sector(&image, &[0xFF; 4], 0xFF), Sector::Erased);
        assert_eq!(
            sector(&image, &[1, 2, 0xFF, 0xFF], 0xFF),
            Sector::HalfWritten
        );
        assert_eq!(sector(&image, &[1, 9, 3, 4], 0xFF), Sector::Other);
    }

    #[test]
    fn a_download_cut_mid_way_is_named_by_its_first_sector_not_whole() {
        use Sector::*;
        assert_eq!(found(&[(0, Whole), (1, Whole)]), Found::Whole);
        assert_eq!(found(&[(0, Erased), (1, Erased)]), Found::Blank);
        assert_eq!(found(&[(0, Whole), (1, Other)]), Found::Another);
        let cut = found(&[(0, Whole), (1, Whole), (2, HalfWritten), (3, Erased)]);
        assert_eq!(
            cut.line().unwrap(),
            "flash holds no whole image (sector 2 half written: an interrupted download?): \
             flashing again"
        );
        let cut = found(&[(0, Whole), (1, Erased)]);
        assert_eq!(
            cut.line().unwrap(),
            "flash holds no whole image (sector 1 erased: an interrupted download?): flashing \
             again"
        );
        assert_eq!(Found::Blank.line(), None);
        assert_eq!(Found::Another.line(), None);
    }
}
