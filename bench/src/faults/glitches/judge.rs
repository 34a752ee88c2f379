//! A trial judged press by press against the intact game: its class and first wrong press.

use boards::virtual_board::{End, Trial as GlitchTrial, TrialEnd};

use super::class::GlitchClass;

/// How a trial is judged: its class, and the first press whose LEDs showed a wrong move or
/// verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// What the visitor saw.
    pub class: GlitchClass,
    /// The press (from 1) of the first wrong move or verdict shown, if one was.
    pub wrong: Option<u32>,
}

impl GlitchClass {
    /// `end` judged against the intact game's `intact`, press by press: the first press
    /// whose LEDs showed a move or verdict other than the intact game's at that press is
    /// the first wrong one; what came after it (or the end, without one) gives the class.
    pub fn of(end: &TrialEnd, intact: &TrialEnd) -> Judgement {
        let wrong = end
            .shown
            .iter()
            .enumerate()
            .find(|(i, shown)| shown.is_a_move_or_verdict() && intact.shown.get(*i) != Some(*shown))
            .map(|(i, _)| i as u32 + 1);
        let class = match (end.end, wrong) {
            (End::Verdict, None) => GlitchClass::NoEffect,
            (End::Verdict, Some(_)) => GlitchClass::Silent,
            (_, Some(_)) => GlitchClass::Late,
            (End::Stopped, None) => GlitchClass::Stopped,
            (End::Slow, None) => GlitchClass::Slow,
            (_, None) => GlitchClass::Detected,
        };
        Judgement { class, wrong }
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
        assert_eq!(judge(end(End::Watchdog, "B2,other")), (Late, Some(1)));
        // A wrong move, then the machine stopped or went slow: the visitor notices, late.
        assert_eq!(judge(end(End::Stopped, "A1,C3,dark")), (Late, Some(2)));
        // Nothing wrong shown, then no progress: stopped or slow by the watchdog's feeding.
        assert_eq!(judge(end(End::Stopped, "A1,dark")), (Stopped, None));
        assert_eq!(judge(end(End::Slow, "A1")), (Slow, None));
        // The fault pattern or an unreadable pattern is never a wrong move.
        assert_eq!(judge(end(End::Trouble, "other")), (Detected, None));
    }
}
