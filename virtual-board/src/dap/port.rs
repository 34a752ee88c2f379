//! The STM32F446's SW-DP and its one AHB-AP, as a debugger drives them over the wire (ARM IHI
//! 0031 ADIv5.2, chapters B2 "DP reference", C2 "MEM-AP"; RM0390 33.8 "SW debug port").
//!
//! The DP: DPIDR, ABORT, CTRL/STAT (the power-up requests acknowledged at once, the sticky
//! error bits), SELECT, RDBUFF and RESEND. The AP: CSW (size, auto-increment), TAR, DRW, BD0-3,
//! CFG, BASE, IDR, in front of the chip's bus ([`Bus`]). A read answers its value directly,
//! as a CMSIS-DAP probe hands its host the posted result; RDBUFF and RESEND give the last.
//! Only AP 0 exists: another reads 0 (its IDR says "no AP"), as a DAP answers an absent AP.

/// An access the DP does not complete (ADIv5 B4.2.2, the SWD acknowledges). A transfer here
/// completes before the next request is read, so WAIT is answered only by a stalled bus
/// ([`Stall::Wait`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ack {
    /// FAULT: a sticky error flag is set (or this access set it); cleared through ABORT.
    Fault,
    /// WAIT: the AP's previous transfer has not completed; the access did nothing.
    Wait,
}

/// A system bus that completes no transfer of the AP's (`serve --ap-bus`): what a debugger
/// meets when the chip's bus is held (a low-power mode without its DBGMCU bits, a master
/// holding HREADY low). The DP's own registers still answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Stall {
    /// Every DRW/BDn transfer is answered WAIT (ADIv5 B4.2.2): the bus stays busy.
    Wait,
    /// Every DRW/BDn transfer is answered FAULT with STICKYERR set: the bus answers ERROR.
    Fault,
}

/// What the AP reaches: the chip's bus (the core's memory, the models).
pub trait Bus {
    /// A transfer of `size` bytes (1, 2 or 4, aligned) at `address`, its value in the low
    /// bits; `Err`: a bus error (nothing there, a refused access).
    fn read(&mut self, address: u32, size: u32) -> Result<u32, ()>;
    /// A write of the low `size` bytes of `value` at `address`; `Err`: a bus error.
    fn write(&mut self, address: u32, size: u32, value: u32) -> Result<(), ()>;
}

/// DPIDR of the STM32F446's SW-DP (RM0390 33.8.3: 0x2BA0_1477; DPv1, designer ARM, part 0xBA).
pub const DPIDR: u32 = 0x2BA0_1477;
/// The AHB-AP's IDR (RM0390 33.6: 0x2477_0011, an AMBA AHB MEM-AP by ARM).
pub const AP_IDR: u32 = 0x2477_0011;
/// The AP's BASE: the ROM table at 0xE00F_F000, ADIv5 format, present (ADIv5 C2.6.1).
pub const AP_BASE: u32 = 0xE00F_F003;

/// DP register addresses (A[3:2] as bytes).
mod dp {
    pub const IDR_ABORT: u32 = 0x0;
    pub const CTRL_STAT: u32 = 0x4;
    pub const SELECT_RESEND: u32 = 0x8;
    pub const RDBUFF: u32 = 0xC;
}

/// CTRL/STAT's bits (ADIv5 B2.2.2).
mod ctrl {
    pub const ORUNDETECT: u32 = 1 << 0;
    pub const STICKYORUN: u32 = 1 << 1;
    pub const STICKYCMP: u32 = 1 << 4;
    pub const STICKYERR: u32 = 1 << 5;
    pub const READOK: u32 = 1 << 6;
    pub const WDATAERR: u32 = 1 << 7;
    pub const CDBGRSTREQ: u32 = 1 << 26;
    pub const CDBGRSTACK: u32 = 1 << 27;
    pub const CDBGPWRUPREQ: u32 = 1 << 28;
    pub const CDBGPWRUPACK: u32 = 1 << 29;
    pub const CSYSPWRUPREQ: u32 = 1 << 30;
    pub const CSYSPWRUPACK: u32 = 1 << 31;
    /// What a write sets: ORUNDETECT, TRNMODE, MASKLANE, TRNCNT and the requests; the
    /// sticky bits are read-only on an SW-DP (cleared through ABORT).
    pub const WRITABLE: u32 =
        ORUNDETECT | 0x0C | 0x0000_0F00 | 0x00FF_F000 | CDBGRSTREQ | CDBGPWRUPREQ | CSYSPWRUPREQ;
    /// Any sticky error: AP accesses are answered FAULT while one is set.
    pub const STICKY: u32 = STICKYORUN | STICKYCMP | STICKYERR | WDATAERR;
}

/// ABORT's clear bits (ADIv5 B2.2.1).
mod abort {
    pub const STKCMPCLR: u32 = 1 << 1;
    pub const STKERRCLR: u32 = 1 << 2;
    pub const WDERRCLR: u32 = 1 << 3;
    pub const ORUNERRCLR: u32 = 1 << 4;
}

/// MEM-AP register offsets (ADIv5 C2.6).
mod ap {
    pub const CSW: u32 = 0x00;
    pub const TAR: u32 = 0x04;
    pub const DRW: u32 = 0x0C;
    pub const BD0: u32 = 0x10;
    pub const BD3: u32 = 0x1C;
    pub const CFG: u32 = 0xF4;
    pub const BASE: u32 = 0xF8;
    pub const IDR: u32 = 0xFC;
}

/// CSW at reset on the Cortex-M4's AHB-AP: DeviceEn, word size off (byte), HPROT data and
/// privileged (Cortex-M4 TRM r0p1, 8.2.2: 0x0300_0040).
const CSW_RESET: u32 = 0x0300_0040;
/// CSW's DeviceEn: the bus is reachable (read-only).
const CSW_DEVICE_EN: u32 = 1 << 6;
/// What a CSW write keeps: Size[2:0], AddrInc[5:4], Mode[11:8] and Prot[30:24].
const CSW_WRITABLE: u32 = 0x7F00_0F37;

/// The SW-DP and its AHB-AP.
#[derive(Clone, Debug)]
pub struct Port {
    ctrl_stat: u32,
    select: u32,
    /// The last AP read's value (RDBUFF, RESEND).
    last: u32,
    csw: u32,
    tar: u32,
    /// The bus stalled (`serve --ap-bus`): no DRW/BDn transfer completes.
    pub stall: Option<Stall>,
}

impl Default for Port {
    fn default() -> Self {
        Port {
            ctrl_stat: 0,
            select: 0,
            last: 0,
            csw: CSW_RESET,
            tar: 0,
            stall: None,
        }
    }
}

impl Port {
    /// A DP register read (`addr`: A[3:2] as a byte address).
    pub fn read_dp(&mut self, addr: u32) -> Result<u32, Ack> {
        match addr & 0xC {
            dp::IDR_ABORT => Ok(DPIDR),
            // Bank 0 is CTRL/STAT; DPv1's bank 1 is DLCR (reads its reset value, 0x40).
            dp::CTRL_STAT => Ok(match self.select & 0xF {
                0 => self.ctrl_stat,
                1 => 0x40,
                _ => 0,
            }),
            // A sticky error refuses everything but DPIDR, CTRL/STAT and ABORT (ADIv5 B4.2.3).
            _ if self.sticky() => Err(Ack::Fault),
            dp::SELECT_RESEND | dp::RDBUFF => Ok(self.last),
            _ => unreachable!("masked to A[3:2]"),
        }
    }

    /// A DP register write.
    pub fn write_dp(&mut self, addr: u32, value: u32) -> Result<(), Ack> {
        match addr & 0xC {
            dp::IDR_ABORT => {
                let clear = [
                    (abort::STKCMPCLR, ctrl::STICKYCMP),
                    (abort::STKERRCLR, ctrl::STICKYERR),
                    (abort::WDERRCLR, ctrl::WDATAERR),
                    (abort::ORUNERRCLR, ctrl::STICKYORUN),
                ];
                for (bit, sticky) in clear {
                    if value & bit != 0 {
                        self.ctrl_stat &= !sticky;
                    }
                }
                Ok(())
            }
            dp::CTRL_STAT if self.select & 0xF == 0 => {
                let sticky = self.ctrl_stat & (ctrl::STICKY | ctrl::READOK);
                let mut next = (value & ctrl::WRITABLE) | sticky;
                // The power domains and the debug reset acknowledge their requests at once.
                for (req, ack) in [
                    (ctrl::CDBGPWRUPREQ, ctrl::CDBGPWRUPACK),
                    (ctrl::CSYSPWRUPREQ, ctrl::CSYSPWRUPACK),
                    (ctrl::CDBGRSTREQ, ctrl::CDBGRSTACK),
                ] {
                    if next & req != 0 {
                        next |= ack;
                    }
                }
                self.ctrl_stat = next;
                Ok(())
            }
            dp::CTRL_STAT => Ok(()),
            _ if self.sticky() => Err(Ack::Fault),
            dp::SELECT_RESEND => {
                self.select = value;
                Ok(())
            }
            // RDBUFF is read-only: a write is ignored (ADIv5 B2.2.9).
            _ => Ok(()),
        }
    }

    /// An AP register read: A[3:2] of `addr`, the bank and AP from SELECT.
    pub fn read_ap(&mut self, addr: u32, bus: &mut dyn Bus) -> Result<u32, Ack> {
        self.ap_ready()?;
        let value = match self.ap_register(addr) {
            None => 0,
            Some(ap::CSW) => self.csw,
            Some(ap::TAR) => self.tar,
            Some(ap::DRW) => {
                let (size, address) = (self.size(), self.tar);
                let word = self.transfer(|bus| bus.read(address, size), bus)?;
                self.increment();
                // The byte lanes: a byte or half-word sits at its address's lane (ADIv5 C2.2.6).
                word << (8 * (address & 3))
            }
            Some(offset @ ap::BD0..=ap::BD3) => {
                let address = (self.tar & !0xF) + (offset - ap::BD0);
                self.transfer(|bus| bus.read(address, 4), bus)?
            }
            Some(ap::CFG) => 0,
            Some(ap::BASE) => AP_BASE,
            Some(ap::IDR) => AP_IDR,
            Some(_) => 0,
        };
        self.last = value;
        Ok(value)
    }

    /// An AP register write.
    pub fn write_ap(&mut self, addr: u32, value: u32, bus: &mut dyn Bus) -> Result<(), Ack> {
        self.ap_ready()?;
        match self.ap_register(addr) {
            Some(ap::CSW) => {
                let size = value & 7;
                // Sizes above a word are not implemented on the AHB-AP: the field keeps its
                // value (Cortex-M4 TRM 8.2.2).
                let size = if size > 2 { self.csw & 7 } else { size };
                self.csw = (value & CSW_WRITABLE & !7) | size | CSW_DEVICE_EN;
            }
            Some(ap::TAR) => self.tar = value,
            Some(ap::DRW) => {
                let (size, address) = (self.size(), self.tar);
                let lane = (value >> (8 * (address & 3))) & mask(size);
                self.transfer(|bus| bus.write(address, size, lane).map(|()| 0), bus)?;
                self.increment();
            }
            Some(offset @ ap::BD0..=ap::BD3) => {
                let address = (self.tar & !0xF) + (offset - ap::BD0);
                self.transfer(|bus| bus.write(address, 4, value).map(|()| 0), bus)?;
            }
            // Read-only registers, and an absent AP: the write is ignored.
            _ => {}
        }
        Ok(())
    }

    /// The AP register `addr` picks with SELECT's bank, if AP 0 is selected.
    fn ap_register(&self, addr: u32) -> Option<u32> {
        let apsel = self.select >> 24;
        (apsel == 0).then_some((self.select & 0xF0) | (addr & 0xC))
    }

    /// Whether an AP access may go on: the debug domain powered, no sticky error.
    fn ap_ready(&mut self) -> Result<(), Ack> {
        if self.sticky() {
            return Err(Ack::Fault);
        }
        // Powered down, the AP does not answer: the access faults (ADIv5 B2.2.2 leaves it
        // UNPREDICTABLE; this DAP sets STICKYERR, as a bus error would).
        if self.ctrl_stat & ctrl::CDBGPWRUPACK == 0 || self.ctrl_stat & ctrl::CSYSPWRUPACK == 0 {
            self.ctrl_stat |= ctrl::STICKYERR;
            return Err(Ack::Fault);
        }
        Ok(())
    }

    fn sticky(&self) -> bool {
        self.ctrl_stat & ctrl::STICKY != 0
    }

    /// A bus transfer: an error sets STICKYERR and the access faults; a stalled bus answers
    /// WAIT (nothing done, nothing sticky) or FAULT.
    fn transfer(
        &mut self,
        f: impl FnOnce(&mut dyn Bus) -> Result<u32, ()>,
        bus: &mut dyn Bus,
    ) -> Result<u32, Ack> {
        let done = match self.stall {
            Some(Stall::Wait) => return Err(Ack::Wait),
            Some(Stall::Fault) => Err(()),
            None => f(bus),
        };
        match done {
            Ok(value) => {
                self.ctrl_stat |= ctrl::READOK;
                Ok(value)
            }
            Err(()) => {
                self.ctrl_stat = (self.ctrl_stat | ctrl::STICKYERR) & !ctrl::READOK;
                Err(Ack::Fault)
            }
        }
    }

    /// CSW's size in bytes.
    fn size(&self) -> u32 {
        1 << (self.csw & 7)
    }

    /// TAR after a DRW access: incremented by the size when AddrInc says so, within its 1 KB
    /// block (TAR[9:0] wraps, the bits above stay: ADIv5 C2.2.5, "Automatic address
    /// increment").
    fn increment(&mut self) {
        if (self.csw >> 4) & 3 != 0 {
            let next = self.tar.wrapping_add(self.size());
            self.tar = (self.tar & !0x3FF) | (next & 0x3FF);
        }
    }
}

/// The low `size` bytes.
fn mask(size: u32) -> u32 {
    if size >= 4 {
        u32::MAX
    } else {
        (1 << (8 * size)) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 64 bytes of RAM at 0x2000_0000, byte-addressed; anything else a bus error.
    struct Ram(Vec<u8>, Vec<(u32, u32)>);

    impl Bus for Ram {
        fn read(&mut self, address: u32, size: u32) -> Result<u32, ()> {
            let at = address.checked_sub(0x2000_0000).ok_or(())? as usize;
            let bytes = self.0.get(at..at + size as usize).ok_or(())?;
            Ok(bytes.iter().rev().fold(0, |v, &b| (v << 8) | u32::from(b)))
        }
        fn write(&mut self, address: u32, size: u32, value: u32) -> Result<(), ()> {
            self.1.push((address, size));
            let at = address.checked_sub(0x2000_0000).ok_or(())? as usize;
            let bytes = self.0.get_mut(at..at + size as usize).ok_or(())?;
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = (value >> (8 * i)) as u8;
            }
            Ok(())
        }
    }

    fn powered() -> (Port, Ram) {
        let mut port = Port::default();
        port.write_dp(4, 0x5000_0000).unwrap();
        (port, Ram(vec![0; 2048], Vec::new()))
    }

    #[test]
    fn the_dp_answers_its_id_and_acknowledges_power_up_requests() {
        // ADIv5 B2.2.5 (DPIDR), B2.2.2 (CTRL/STAT: CxxxPWRUPACK follow their requests).
        let mut port = Port::default();
        assert_eq!(port.read_dp(0).unwrap(), 0x2BA0_1477);
        assert_eq!(port.read_dp(4).unwrap() >> 28, 0, "powered down");
        port.write_dp(4, 0x5000_0000).unwrap();
        assert_eq!(
            port.read_dp(4).unwrap() >> 28,
            0xF,
            "both requests acknowledged"
        );
        port.write_dp(4, 0x1000_0000).unwrap();
        assert_eq!(
            port.read_dp(4).unwrap() >> 28,
            0x3,
            "system power down, debug on"
        );
        port.write_dp(4, 0).unwrap();
        assert_eq!(port.read_dp(4).unwrap() >> 28, 0);
    }

    #[test]
    fn an_ap_access_while_powered_down_faults_and_sticks_until_abort() {
        // ADIv5 B4.2.3: with a sticky flag set the DP answers FAULT to all but DPIDR and
        // CTRL/STAT reads and ABORT writes.
        let mut port = Port::default();
        let mut ram = Ram(vec![0; 64], Vec::new());
        assert_eq!(port.read_ap(0xFC, &mut ram), Err(Ack::Fault));
        assert_ne!(port.read_dp(4).unwrap() & ctrl::STICKYERR, 0);
        port.write_dp(4, 0x5000_0000).unwrap();
        assert_eq!(
            port.read_ap(0xFC, &mut ram),
            Err(Ack::Fault),
            "still sticky"
        );
        assert_eq!(port.read_dp(0xC), Err(Ack::Fault), "RDBUFF refused");
        assert_eq!(port.write_dp(8, 0), Err(Ack::Fault), "SELECT refused");
        assert_eq!(port.read_dp(0).unwrap(), DPIDR, "DPIDR still answers");
        port.write_dp(0, abort::STKERRCLR).unwrap();
        assert_eq!(port.read_dp(4).unwrap() & ctrl::STICKY, 0);
        port.write_dp(8, 0xF0).unwrap();
        assert_eq!(port.read_ap(0xC, &mut ram).unwrap(), AP_IDR);
        // A write cannot set a sticky bit (read-only on an SW-DP).
        port.write_dp(8, 0).unwrap();
        port.write_dp(4, 0x5000_0000 | ctrl::STICKYERR).unwrap();
        assert_eq!(port.read_dp(4).unwrap() & ctrl::STICKY, 0);
    }

    #[test]
    fn bank_f_holds_idr_base_and_cfg_and_other_aps_read_zero() {
        let (mut port, mut ram) = powered();
        port.write_dp(8, 0x0000_00F0).unwrap();
        assert_eq!(
            port.read_ap(0x4, &mut ram).unwrap(),
            0,
            "CFG: little-endian"
        );
        assert_eq!(port.read_ap(0x8, &mut ram).unwrap(), 0xE00F_F003);
        assert_eq!(port.read_ap(0xC, &mut ram).unwrap(), 0x2477_0011);
        assert_eq!(
            port.read_dp(0xC).unwrap(),
            0x2477_0011,
            "RDBUFF: the last read"
        );
        // AP 1 does not exist: its IDR reads 0, as discovery expects.
        port.write_dp(8, 0x0100_00F0).unwrap();
        assert_eq!(port.read_ap(0xC, &mut ram).unwrap(), 0);
        port.write_ap(0x0, 0xFFFF_FFFF, &mut ram).unwrap();
        assert!(ram.1.is_empty(), "nothing reached the bus");
    }

    #[test]
    fn drw_moves_words_and_tar_increments_within_its_1k_block() {
        // ADIv5 C2.2.5: TAR[9:0] increments; the block's upper bits stay.
        let (mut port, mut ram) = powered();
        port.write_dp(8, 0).unwrap();
        port.write_ap(0x0, CSW_RESET | 0x12, &mut ram).unwrap(); // word, single increment
        assert_eq!(port.read_ap(0x0, &mut ram).unwrap() & 0x37, 0x12);
        port.write_ap(0x4, 0x2000_03FC, &mut ram).unwrap();
        port.write_ap(0xC, 0xAABB_CCDD, &mut ram).unwrap();
        assert_eq!(port.read_ap(0x4, &mut ram).unwrap(), 0x2000_0000, "wrapped");
        port.write_ap(0xC, 0x1122_3344, &mut ram).unwrap();
        port.write_ap(0x4, 0x2000_03FC, &mut ram).unwrap();
        assert_eq!(port.read_ap(0xC, &mut ram).unwrap(), 0xAABB_CCDD);
        assert_eq!(port.read_ap(0xC, &mut ram).unwrap(), 0x1122_3344);
        // Without increment TAR stays.
        port.write_ap(0x0, CSW_RESET | 0x02, &mut ram).unwrap();
        port.write_ap(0x4, 0x2000_0010, &mut ram).unwrap();
        port.read_ap(0xC, &mut ram).unwrap();
        assert_eq!(port.read_ap(0x4, &mut ram).unwrap(), 0x2000_0010);
    }

    #[test]
    fn bytes_and_half_words_use_their_lanes() {
        // ADIv5 C2.2.6: a byte at address A travels on DRW's lane A[1:0].
        let (mut port, mut ram) = powered();
        port.write_dp(8, 0).unwrap();
        port.write_ap(0x0, CSW_RESET | 0x10, &mut ram).unwrap(); // byte, increment
        port.write_ap(0x4, 0x2000_0001, &mut ram).unwrap();
        port.write_ap(0xC, 0x0000_AB00, &mut ram).unwrap();
        assert_eq!(ram.0[1], 0xAB);
        assert_eq!(ram.1.last(), Some(&(0x2000_0001, 1)), "one byte written");
        port.write_ap(0x0, CSW_RESET | 0x11, &mut ram).unwrap(); // half-word
        port.write_ap(0x4, 0x2000_0002, &mut ram).unwrap();
        port.write_ap(0xC, 0xBEEF_0000, &mut ram).unwrap();
        assert_eq!(&ram.0[2..4], &[0xEF, 0xBE]);
        port.write_ap(0x4, 0x2000_0002, &mut ram).unwrap();
        assert_eq!(port.read_ap(0xC, &mut ram).unwrap(), 0xBEEF_0000);
        // A size above a word keeps the size before (not implemented on the AHB-AP).
        port.write_ap(0x0, CSW_RESET | 0x13, &mut ram).unwrap();
        assert_eq!(port.read_ap(0x0, &mut ram).unwrap() & 7, 1);
    }

    #[test]
    fn banked_data_registers_reach_the_four_words_at_tar_and_leave_it() {
        // ADIv5 C2.6.2: BDn is the word at TAR[31:4] + 4n; TAR does not change.
        let (mut port, mut ram) = powered();
        port.write_dp(8, 0).unwrap();
        port.write_ap(0x4, 0x2000_0024, &mut ram).unwrap();
        port.write_dp(8, 0x10).unwrap();
        port.write_ap(0x8, 0x0102_0304, &mut ram).unwrap(); // BD2
        assert_eq!(&ram.0[0x28..0x2C], &[4, 3, 2, 1]);
        assert_eq!(port.read_ap(0x8, &mut ram).unwrap(), 0x0102_0304);
        port.write_dp(8, 0).unwrap();
        assert_eq!(port.read_ap(0x4, &mut ram).unwrap(), 0x2000_0024);
    }

    #[test]
    fn a_bus_error_faults_sets_stickyerr_and_abort_clears_it() {
        let (mut port, mut ram) = powered();
        port.write_dp(8, 0).unwrap();
        port.write_ap(0x0, CSW_RESET | 0x02, &mut ram).unwrap();
        port.write_ap(0x4, 0x1000_0000, &mut ram).unwrap();
        assert_eq!(port.read_ap(0xC, &mut ram), Err(Ack::Fault));
        assert_ne!(port.read_dp(4).unwrap() & ctrl::STICKYERR, 0);
        assert_eq!(port.read_ap(0x4, &mut ram), Err(Ack::Fault), "sticky");
        port.write_dp(0, abort::STKERRCLR).unwrap();
        assert_eq!(port.read_ap(0x4, &mut ram).unwrap(), 0x1000_0000);
    }

    #[test]
    fn a_stalled_bus_answers_wait_without_a_sticky_flag_or_fault_with_one() {
        // ADIv5 B4.2.2: WAIT, the transfer not done (the host retries or aborts); FAULT, a
        // sticky flag. The AP's own registers (TAR here) still answer: they are not the bus.
        let (mut port, mut ram) = powered();
        port.write_dp(8, 0).unwrap();
        ram.0[0] = 0x5A;
        port.write_ap(0x4, 0x2000_0000, &mut ram).unwrap();
        port.stall = Some(Stall::Wait);
        assert_eq!(port.read_ap(0xC, &mut ram), Err(Ack::Wait));
        assert_eq!(port.write_ap(0xC, 1, &mut ram), Err(Ack::Wait));
        assert_eq!(port.read_dp(4).unwrap() & ctrl::STICKY, 0, "nothing sticky");
        assert_eq!(
            port.read_ap(0x4, &mut ram).unwrap(),
            0x2000_0000,
            "TAR kept"
        );
        assert_eq!(ram.0[0], 0x5A, "nothing written");
        port.stall = Some(Stall::Fault);
        assert_eq!(port.read_ap(0xC, &mut ram), Err(Ack::Fault));
        assert_ne!(port.read_dp(4).unwrap() & ctrl::STICKYERR, 0);
        port.stall = None;
        port.write_dp(0, abort::STKERRCLR).unwrap();
        assert_eq!(port.read_ap(0xC, &mut ram).unwrap() & 0xFF, 0x5A);
    }
}
