//! What the fault campaign breaks and where: the kinds of fault, each at every place of a
//! board, and the targets whose emulated cage can be broken.

use emulator::emulated::{Defect, DefectError};
use heuristic::Size;

use crate::dut::Dut;
use crate::dut::lockstep::Lockstep;
use crate::dut::pil::Pil;
use crate::dut::pil::PilTarget;
use crate::dut::pil::RttPil;
use crate::dut::sil::Sil;

/// A target on an emulated board (SIL, PIL, both in lockstep): the bench can break its cage.
pub trait DefectTarget: Dut {
    /// Injects `fault` into the emulated cage.
    fn inject(&self, fault: Defect) -> Result<(), DefectError>;
    /// Takes every fault out: the board reads as a fresh one of the same build.
    fn repair(&self);
}

/// A target with one emulated cage under it.
pub trait EmulatedTarget: Dut {
    /// The emulated cage.
    fn emulated(&self) -> &emulator::emulated::EmulatedCage;
}

impl<T: EmulatedTarget> DefectTarget for T {
    fn inject(&self, fault: Defect) -> Result<(), DefectError> {
        self.emulated().inject(fault)
    }
    fn repair(&self) {
        self.emulated().repair();
    }
}

impl EmulatedTarget for Sil {
    fn emulated(&self) -> &emulator::emulated::EmulatedCage {
        self.emulated_cage()
    }
}

impl EmulatedTarget for Pil {
    fn emulated(&self) -> &emulator::emulated::EmulatedCage {
        self.emulated_cage()
    }
}

impl EmulatedTarget for RttPil {
    fn emulated(&self) -> &emulator::emulated::EmulatedCage {
        self.emulated_cage()
    }
}

impl EmulatedTarget for PilTarget {
    fn emulated(&self) -> &emulator::emulated::EmulatedCage {
        self.emulated_cage()
    }
}

impl<A: DefectTarget, B: DefectTarget> DefectTarget for Lockstep<A, B> {
    fn inject(&self, fault: Defect) -> Result<(), DefectError> {
        self.a.inject(fault)?;
        self.b.inject(fault)
    }
    fn repair(&self) {
        self.a.repair();
        self.b.repair();
    }
}

/// The kinds of fault, each injected at every place it can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum FaultKind {
    /// [`Defect::Open`], at every edge.
    Open,
    /// [`Defect::TenTimes`], at every edge.
    TenTimes,
    /// [`Defect::Tenth`], at every edge.
    Tenth,
    /// [`Defect::WireLeft`], at every edge.
    WireLeft,
    /// [`Defect::Swapped`], at every unordered pair of edges.
    Swapped,
    /// [`Defect::Stuck`] at code 0, at every measured node.
    StuckZero,
    /// [`Defect::Stuck`] at full scale, at every measured node.
    StuckFull,
    /// [`Defect::Stuck`] at mid-scale (2^(N−1)), at every measured node.
    StuckMid,
    /// [`Defect::NoPullup`], at every measured node.
    NoPullup,
    /// [`Defect::SeriesShorted`], once.
    SeriesShorted,
}

impl FaultKind {
    /// Every kind, in table order.
    pub const ALL: [FaultKind; 10] = [
        FaultKind::Open,
        FaultKind::TenTimes,
        FaultKind::Tenth,
        FaultKind::WireLeft,
        FaultKind::Swapped,
        FaultKind::StuckZero,
        FaultKind::StuckFull,
        FaultKind::StuckMid,
        FaultKind::NoPullup,
        FaultKind::SeriesShorted,
    ];

    /// The kind's name in tables.
    pub fn label(self) -> &'static str {
        match self {
            FaultKind::Open => "resistor open",
            FaultKind::TenTimes => "resistor ×10",
            FaultKind::Tenth => "resistor ×0.1",
            FaultKind::WireLeft => "wire left in after a cut",
            FaultKind::Swapped => "pair of edges swapped",
            FaultKind::StuckZero => "ADC channel stuck at 0",
            FaultKind::StuckFull => "ADC channel stuck at full scale",
            FaultKind::StuckMid => "ADC channel stuck at mid-scale",
            FaultKind::NoPullup => "pull-up missing",
            FaultKind::SeriesShorted => "series resistor shorted",
        }
    }

    /// The fault of this kind at every place of a board of `size` read by an ADC whose full
    /// scale is `full_scale`: edges in reading order, pairs of them lexicographically, the
    /// measured nodes (internal nodes, then the bottom terminal; Q is the supply).
    pub fn faults(self, size: Size, full_scale: u16) -> Vec<Defect> {
        let edges: Vec<_> = size.edges().collect();
        let nodes = size.nodes().filter(|n| *n != heuristic::Node::Top);
        let stuck = |code: u16| nodes.clone().map(|n| Defect::Stuck(n, code)).collect();
        match self {
            FaultKind::Open => edges.into_iter().map(Defect::Open).collect(),
            FaultKind::TenTimes => edges.into_iter().map(Defect::TenTimes).collect(),
            FaultKind::Tenth => edges.into_iter().map(Defect::Tenth).collect(),
            FaultKind::WireLeft => edges.into_iter().map(Defect::WireLeft).collect(),
            FaultKind::Swapped => edges
                .iter()
                .enumerate()
                .flat_map(|(i, &a)| edges[i + 1..].iter().map(move |&b| Defect::Swapped(a, b)))
                .collect(),
            FaultKind::StuckZero => stuck(0),
            FaultKind::StuckFull => stuck(full_scale),
            FaultKind::StuckMid => stuck(full_scale / 2 + 1),
            FaultKind::NoPullup => nodes.map(Defect::NoPullup).collect(),
            FaultKind::SeriesShorted => vec![Defect::SeriesShorted],
        }
    }
}

/// Where a fault is, in words: `A5`, `A5+C3`, `C4`, `Rs`.
pub fn place(fault: Defect) -> String {
    match fault {
        Defect::Open(e) | Defect::TenTimes(e) | Defect::Tenth(e) | Defect::WireLeft(e) => {
            e.to_string()
        }
        Defect::Swapped(a, b) => format!("{a}+{b}"),
        Defect::Stuck(n, _) | Defect::NoPullup(n) => n.to_string(),
        Defect::SeriesShorted => "Rs".to_string(),
    }
}
