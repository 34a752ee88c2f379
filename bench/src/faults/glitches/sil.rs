//! SIL's game for the campaign's board and noise: the reference the intact game must equal.

use boards::virtual_board::TrialEnd;

use super::board::CampaignBoard;
use super::error::GlitchError;
use super::trial_board::GAME;

/// SIL's game on `board` with game [`GAME`]'s noise, against the same perfect Short: its
/// record and winner, as the board's answer words them.
pub fn sil_game(board: CampaignBoard<'_>) -> Result<String, GlitchError> {
    let size = heuristic::Size::M4;
    let cage = emulator::emulated::EmulatedCage::new(board.profile, size, board.seed)
        .map_err(|e| GlitchError::Intact(e.to_string()))?;
    cage.start_game(GAME);
    let mut app = cage.app(board.base, firmware::Config::default());
    let log = emulator::emulated::run_game(&cage, &mut app, |p| {
        emulator::players::perfect_move(p).unwrap_or_else(|| size.edges().next().expect("an edge"))
    });
    let winner = match log.result {
        Ok(heuristic::Side::Cut) => "cut",
        Ok(heuristic::Side::Short) => "short",
        Err(_) => "-",
    };
    Ok(format!("{} {winner}", log.record()))
}

/// Refuses an intact game that is not SIL's ([`sil_game`]).
pub(super) fn check_against_sil(
    intact: &TrialEnd,
    board: CampaignBoard<'_>,
) -> Result<(), GlitchError> {
    let sil = sil_game(board)?;
    let winner = match intact.winner {
        Some(heuristic::Side::Cut) => "cut",
        Some(heuristic::Side::Short) => "short",
        None => "-",
    };
    let on_board = format!("{} {winner}", intact.record);
    if on_board != sil {
        return Err(GlitchError::Sil {
            board: on_board,
            sil,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use boards::virtual_board::End;
    use heuristic::Side;

    use super::*;
    use crate::faults::glitches::testing::end;

    #[test]
    fn an_intact_game_that_is_not_sils_is_refused() {
        let profile = &boards::NUCLEO_F446RE;
        let board = CampaignBoard {
            arg: profile.name,
            profile,
            base: profile,
            seed: Some(7),
        };
        // SIL's own game passes; one move changed, or another winner, is refused by name.
        let sil = sil_game(board).unwrap();
        let (record, winner) = sil.split_once(' ').unwrap();
        let mut intact = end(End::Verdict, "");
        intact.record = record.to_string();
        intact.winner = Some(if winner == "cut" {
            Side::Cut
        } else {
            Side::Short
        });
        check_against_sil(&intact, board).unwrap();
        intact.winner = intact.winner.map(Side::opponent);
        let e = check_against_sil(&intact, board).unwrap_err().to_string();
        assert!(e.contains("is not SIL's") && e.contains(record), "{e}");
        intact.winner = intact.winner.map(Side::opponent);
        intact.record.push_str(",A1");
        assert!(check_against_sil(&intact, board).is_err());
    }
}
