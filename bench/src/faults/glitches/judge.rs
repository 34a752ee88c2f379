//! A trial judged press by press against the intact game: its class and first wrong press.

use boards::virtual_board::{End, Shown, Trial as GlitchTrial, TrialEnd};

use super::class::GlitchClass;

/// How a trial is judged: its class, the first press whose LEDs showed a wrong move or
/// verdict, and the first that showed garbled LEDs before one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// What the visitor saw.
    pub class: GlitchClass,
    /// The press (from 1, missed presses not counted) of the first wrong move or verdict
    /// shown, if one was.
    pub wrong: Option<u32>,
    /// The press of the first garbled pattern ([`Shown::is_garbled`]) shown before any wrong
    /// move: a trial noticed by the visitor reading LEDs that are nothing, not by a check of
    /// the machine's.
    pub garbled: Option<u32>,
}

impl Judgement {
    /// How it was noticed, for a detected or late trial: `garbled` (LEDs that are nothing,
    /// before any wrong move), else the end's word (the machine's checks, or `trouble`: a cut
    /// that cannot be made, presses unanswered).
    pub fn noticed_by(&self, end: &TrialEnd) -> &'static str {
        if self.garbled.is_some() {
            "garbled"
        } else {
            end.end.word()
        }
    }
}

impl GlitchClass {
    /// `end` judged against the intact game's `intact`, press by press (the presses the
    /// visitor acted on: a missed press, pressed again, is no press of the game's): the first
    /// press whose LEDs read as a move or verdict other than the intact game's at that press
    /// (a cut taken and shown again among them) is the first wrong one; what came after it
    /// (or the end, without one) gives the class.
    pub fn of(end: &TrialEnd, intact: &TrialEnd) -> Judgement {
        let seen = end.seen();
        let expected = intact.seen();
        let first = |wrong: &dyn Fn(usize, Shown) -> bool| {
            seen.iter()
                .enumerate()
                .find(|&(i, &shown)| wrong(i, shown))
                .map(|(i, _)| i as u32 + 1)
        };
        let wrong = first(&|i, shown| {
            shown.reads_as_a_move_or_verdict() && expected.get(i) != Some(&shown)
        });
        let garbled =
            first(&|_, shown| shown.is_garbled()).filter(|&g| wrong.is_none_or(|w| g < w));
        let class = match (end.end, wrong) {
            (End::Verdict, None) => GlitchClass::NoEffect,
            (End::Verdict, Some(_)) => GlitchClass::Silent,
            (_, Some(_)) => GlitchClass::Late,
            (End::Stopped, None) => GlitchClass::Stopped,
            (End::Slow, None) => GlitchClass::Slow,
            (_, None) => GlitchClass::Detected,
        };
        Judgement {
            class,
            wrong,
            garbled,
        }
    }
}

/// One trial's result.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The trial, as sent (`monitor` + its `Display` replays it).
    pub trial: GlitchTrial,
    /// The board's answer.
    pub end: TrialEnd,
    /// Judged against the intact game.
    pub judgement: Judgement,
    /// Wall-clock milliseconds it took (the board's and the stub's): printed, never in the
    /// report files, which the same command writes byte for byte alike.
    pub ms: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::faults::glitches::testing::end;

    #[test]
    fn a_trial_is_judged_by_what_the_visitor_saw_press_by_press() {
        use GlitchClass::*;
        let intact = end(End::Verdict, "A1,C1,E1,G1,cut-won");
        let judge = |e: TrialEnd| {
            let j = GlitchClass::of(&e, &intact);
            (j.class, j.wrong)
        };
        assert_eq!(
            judge(end(End::Verdict, "A1,C1,E1,G1,cut-won")),
            (NoEffect, None)
        );
        // A wrong cut at press 3, the game played on to a verdict: silent.
        assert_eq!(
            judge(end(End::Verdict, "A1,C1,E3,G1,F2,cut-won")),
            (Silent, Some(3))
        );
        // The right moves and a wrong verdict (Short's win lit at press 5): silent.
        assert_eq!(
            judge(end(End::Verdict, "A1,C1,E1,G1,short-won")),
            (Silent, Some(5))
        );
        // A verdict a press early is a wrong verdict.
        assert_eq!(
            judge(end(End::Verdict, "A1,C1,E1,cut-won")),
            (Silent, Some(4))
        );
        // Noticed before anything wrong was shown: detected, whatever noticed it.
        for noticed in [
            End::SelfCheck,
            End::Panic,
            End::Watchdog,
            End::CoreFault,
            End::Trouble,
        ] {
            assert_eq!(
                judge(end(noticed, "A1,C1")),
                (Detected, None),
                "{noticed:?}"
            );
        }
        assert_eq!(judge(end(End::SelfCheck, "A1,C1,fault")), (Detected, None));
        // A wrong cut the visitor made, then the self-check a press later: late, not detected.
        assert_eq!(judge(end(End::SelfCheck, "A1,C3,fault")), (Late, Some(2)));
        assert_eq!(judge(end(End::Panic, "A1,C3")), (Late, Some(2)));
        assert_eq!(
            judge(end(End::Watchdog, "B2,lit:1234567:ABCDEFG")),
            (Late, Some(1))
        );
        // A wrong move, then the machine stopped or went slow: the visitor notices, late.
        assert_eq!(judge(end(End::Stopped, "A1,C3,dark")), (Late, Some(2)));
        // Nothing wrong shown, then no progress: stopped or slow by the watchdog's feeding.
        assert_eq!(judge(end(End::Stopped, "A1,dark")), (Stopped, None));
        assert_eq!(judge(end(End::Slow, "A1")), (Slow, None));
        // The fault pattern or a garbled pattern is never a wrong move.
        assert_eq!(
            judge(end(End::Trouble, "lit:1234567:ABCDEFG")),
            (Detected, None)
        );
    }

    #[test]
    fn a_press_taken_is_never_a_missed_one_and_garbled_leds_are_their_own_reason() {
        use GlitchClass::*;
        let intact = end(End::Verdict, "A1,C1,E1,G1,cut-won");
        let judge = |e: &TrialEnd| {
            let j = GlitchClass::of(e, &intact);
            (j.class, j.wrong, j.garbled, j.noticed_by(e))
        };
        // The second press taken and A1 lit again: a move shown, wrong; the visitor cannot
        // cut it again and says so: late.
        assert_eq!(
            judge(&end(End::Trouble, "A1,A1")),
            (Late, Some(2), None, "trouble")
        );
        // The same cut shown again, and the game played on to a verdict: silent.
        assert_eq!(
            judge(&end(End::Verdict, "A1,C1,C1,G1,cut-won")),
            (Silent, Some(3), None, "verdict")
        );
        // The second press missed (the handler did not run, the LEDs stayed on A1), pressed
        // again and taken: the game as the intact one.
        for presses in [
            "A1,missed,C1,E1,G1,cut-won",
            "A1,missed,missed,C1,E1,G1,cut-won",
            "missed,A1,C1,E1,G1,missed,cut-won",
        ] {
            assert_eq!(
                judge(&end(End::Verdict, presses)),
                (NoEffect, None, None, "verdict"),
                "{presses}"
            );
        }
        // Three presses missed: the visitor gives up, nothing wrong shown.
        assert_eq!(
            judge(&end(End::Trouble, "A1,missed,missed,missed")),
            (Detected, None, None, "trouble")
        );
        // LEDs that changed without the handler are read as after any press.
        assert_eq!(
            judge(&end(End::Verdict, "A1,untaken:C1,E1,G1,cut-won")),
            (NoEffect, None, None, "verdict")
        );
        assert_eq!(
            judge(&end(End::Trouble, "A1,untaken:C3")),
            (Late, Some(2), None, "trouble")
        );
        // Garbled LEDs (not one row and one column, no verdict, not the fault pattern) before
        // any wrong move: noticed by the visitor, a reason of its own.
        assert_eq!(
            judge(&end(End::Trouble, "A1,lit:1357:A")),
            (Detected, None, Some(2), "garbled")
        );
        assert_eq!(
            judge(&end(End::Trouble, "lit:-:C")),
            (Detected, None, Some(1), "garbled")
        );
        // After a wrong move they are what noticed it, late as before.
        assert_eq!(
            judge(&end(End::Trouble, "A1,C3,lit:12:-")),
            (Late, Some(2), None, "trouble")
        );
        // One row and one column that are no edge: a cut, which the intact game never shows.
        assert_eq!(
            judge(&end(End::Trouble, "A1,lit:1:A")),
            (Late, Some(2), None, "trouble")
        );
        // The fault pattern is the machine's own check, not garbled.
        assert_eq!(
            judge(&end(End::SelfCheck, "A1,fault")),
            (Detected, None, None, "self-check")
        );
    }
}
