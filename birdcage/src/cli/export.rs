//! `birdcage export spice|circuitjs`: a position as a file for ngspice or CircuitJS1.

use anyhow::Result;
use clap::{Args, Subcommand, ValueEnum};
use emulator::export::{self, Network};
use emulator::physical::{Build, PullupState, wired};
use heuristic::{Position, Record};

use super::{BoardArgs, GameArgs};

/// Write a position as an ngspice netlist or a CircuitJS1 circuit (to stdout).
#[derive(Args, Debug)]
pub struct Cmd {
    #[command(subcommand)]
    format: Target,
}

#[derive(Subcommand, Debug)]
enum Target {
    /// An ngspice netlist of exactly the circuit the model solves, with `.op` and a control
    /// block that prints every node voltage (`ngspice -b FILE`).
    Spice {
        #[command(flatten)]
        network: NetworkArgs,
        /// Pull-ups connected (the heuristic's measurement) or released (game-over reading).
        #[arg(long, value_enum, default_value_t = Pullups::On)]
        pullups: Pullups,
    },
    /// A CircuitJS1 circuit (File | Open File...): a three-way switch per edge
    /// (resistor / short / open) with an ammeter, the supply rail, the series resistor and a
    /// test point on the bottom terminal.
    Circuitjs {
        #[command(flatten)]
        network: NetworkArgs,
    },
}

#[derive(Args, Debug)]
struct NetworkArgs {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Pullups {
    On,
    Released,
}

impl NetworkArgs {
    fn resolve(&self) -> Result<(Network, Position, String)> {
        let g = &self.game;
        let r = &g.record;
        let record = Record::read(r.size, r.first.into(), &r.moves)?;
        let game = record.replay(r.size)?;
        // A board's cage as its build holds the game (M=3 on the M=4 cage), as `analyze
        // --board` and the firmware read it.
        let (network, position) = match self.board.board()? {
            Some(board) => {
                let build = Build::draw(&board, r.size, self.board.tolerance_seed);
                let position = wired(build.cage(), &game)?;
                let network = Network::Board {
                    board: Box::new(board),
                    parts: build.parts,
                };
                (network, position)
            }
            None => (Network::Model(g.network), game),
        };
        let mut record = if record.is_empty() {
            "(start)".to_string()
        } else {
            record.to_string()
        };
        if position.size() != r.size {
            record = format!(
                "{record} (an {} game on the {} cage)",
                r.size,
                position.size()
            );
        }
        Ok((network, position, record))
    }
}

impl Cmd {
    pub fn run(&self) -> Result<String> {
        Ok(match &self.format {
            Target::Spice { network, pullups } => {
                let (network, position, record) = network.resolve()?;
                let pullups = match pullups {
                    Pullups::On => PullupState::On,
                    Pullups::Released => PullupState::Released,
                };
                export::spice::netlist(&network, &position, &record, pullups)?
            }
            Target::Circuitjs { network } => {
                let (network, position, _) = network.resolve()?;
                export::circuitjs::circuit(&network, &position)
            }
        })
    }
}
