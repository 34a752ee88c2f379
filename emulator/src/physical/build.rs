//! One build of a board: its parts, its ADC device and its converter's noise, drawn from one
//! seed by one function, so that the in-process firmware (SIL), `birdcage analyze --board`,
//! every study and the bench read the same board for the same seed.

use boards::CageSizeError;
use heuristic::{Position, Side, Size};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Adc, Board, Parts, PullupState, Solution, SolveError, solve};

/// The seed of one build is split into streams so that drawing the ADC does not shift the
/// part values drawn from the same seed, nor the noise either.
const ADC_STREAM: u64 = 0x0adc;
const NOISE_STREAM: u64 = 0x7015e;

/// A board as built: the cage it wires, the value of every part and one converter.
///
/// ```
/// use emulator::physical::{Board, Build};
/// use heuristic::Size;
/// let board = Board::from_profile(&boards::NUCLEO_F446RE);
/// let a = Build::draw(&board, Size::M3, Some(7));
/// // M=3 is played on the M=4 cage every profile wires.
/// assert_eq!(a.cage(), Size::M4);
/// assert_eq!(a, Build::draw(&board, Size::M4, Some(7)));
/// assert_ne!(a.parts, Build::draw(&board, Size::M4, Some(8)).parts);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Build {
    /// The parts, fitting [`Build::cage`].
    pub parts: Parts,
    /// The converter, with its static errors.
    pub adc: Adc,
    seed: Option<u64>,
}

impl Build {
    /// The build of `board` that plays games of `size`: nominal parts and a perfect converter
    /// (the board's resolution, reference and averaging, no errors, no noise) without a seed;
    /// with one, the parts (from `seed`), one ADC device and its noise (from streams of it).
    pub fn draw(board: &Board, size: Size, seed: Option<u64>) -> Build {
        Build {
            parts: Build::parts(board, size, seed),
            adc: match seed {
                Some(s) => Adc::draw(board, s.wrapping_add(ADC_STREAM)),
                None => Adc::nominal(board),
            },
            seed,
        }
    }

    /// The parts alone of [`Build::draw`]: for studies that read them through an ideal
    /// converter.
    pub fn parts(board: &Board, size: Size, seed: Option<u64>) -> Parts {
        let cage = cage_for(size);
        match seed {
            Some(s) => Parts::draw(board, cage, s),
            None => Parts::nominal(board, cage),
        }
    }

    /// The cage the parts fit.
    pub fn cage(&self) -> Size {
        self.parts.size
    }

    /// The seed it was drawn from; `None` for the nominal build.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// A fresh noise stream for the converter: the same for the same seed.
    pub fn noise(&self) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(self.seed.unwrap_or(0) ^ NOISE_STREAM)
    }

    /// Node voltages with `game` set up on the cage: an M=3 game on the M=4 cage as
    /// [`boards::cage_states`] wires it (its own edges, jumpers from row 6 to Q, the rest
    /// cut). Read the result with the game's nodes.
    pub fn solve(
        &self,
        board: &Board,
        game: &Position,
        pullups: PullupState,
    ) -> Result<Solution, SolveError> {
        solve_on_cage(board, &self.parts, game, pullups)
    }
}

/// Node voltages of `game` set up on the cage `parts` fit, as [`Build::solve`] (public so that
/// a calibration can try other part values).
pub fn solve_on_cage(
    board: &Board,
    parts: &Parts,
    game: &Position,
    pullups: PullupState,
) -> Result<Solution, SolveError> {
    if game.size() == parts.size {
        return solve(board, parts, game, pullups);
    }
    solve(board, parts, &wired(parts.size, game)?, pullups)
}

/// Solves `board`'s nominal cage for games of `size` at the start position, pull-ups on and
/// released: refuses a board f64 cannot solve before a long run starts.
///
/// ```
/// use emulator::physical::{Board, check_solves};
/// let mut board = Board::from_profile(&boards::NUCLEO_F446RE);
/// assert_eq!(check_solves(&board, heuristic::Size::M4), Ok(()));
/// board.switches.as_mut().unwrap().off_ohms = 1e-320; // 1/x is infinite
/// assert!(check_solves(&board, heuristic::Size::M4).is_err());
/// ```
pub fn check_solves(board: &Board, size: Size) -> Result<(), SolveError> {
    let parts = Build::parts(board, size, None);
    let start = Position::new(size, Side::Cut);
    for pullups in [PullupState::On, PullupState::Released] {
        solve_on_cage(board, &parts, &start, pullups)?;
    }
    Ok(())
}

/// The voltage of each of `game`'s nodes, in [`Size::nodes`] order, with `game` on the cage
/// `parts` fit (see [`solve_on_cage`]).
pub fn game_volts(
    board: &Board,
    parts: &Parts,
    game: &Position,
    pullups: PullupState,
) -> Result<Vec<Option<f64>>, SolveError> {
    let solution = solve_on_cage(board, parts, game, pullups)?;
    Ok(game.size().nodes().map(|n| solution.volts(n)).collect())
}

/// The position the cage of size `cage` holds while `game` is played on it: `game` itself on
/// its own cage, an M=3 game on the M=4 cage as [`boards::cage_states`] wires it.
///
/// ```
/// use heuristic::{EdgeState, Position, Side, Size};
/// let game = Position::from_record(Size::M3, Side::Cut, "A5").unwrap();
/// let cage = emulator::physical::wired(Size::M4, &game).unwrap();
/// assert_eq!(cage.size(), Size::M4);
/// assert_eq!(cage.states()[0], EdgeState::Short); // A7: the jumper to Q
/// ```
pub fn wired(cage: Size, game: &Position) -> Result<Position, CageSizeError> {
    if game.size() == cage {
        return Ok(game.clone());
    }
    let states = boards::cage_states(game)?;
    Position::set_up(cage, &states, Side::Cut).ok_or(CageSizeError(game.size()))
}

/// The cage a game of `size` is played on: M=3 and M=4 on the M=4 cage every profile wires
/// ([`boards::CAGE_EDGES`]); other sizes, which no board wires, on a cage of their own size.
///
/// ```
/// use heuristic::Size;
/// assert_eq!(emulator::physical::cage_for(Size::M3), Size::M4);
/// assert_eq!(emulator::physical::cage_for(Size::new(6).unwrap()), Size::new(6).unwrap());
/// ```
pub fn cage_for(size: Size) -> Size {
    if matches!(size.get(), 3 | 4) {
        Size::M4
    } else {
        size
    }
}
