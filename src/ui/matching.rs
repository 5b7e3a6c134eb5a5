//! The panel's motion-matching section: steering on or off (WASD or the arrows in the 3D view,
//! relative to the camera; Shift runs), the walk and run speeds, the database's build progress
//! and size, and the last search: the clip and time it plays, the best frame's cost by feature
//! group, the search time, and the searches and switches made.

use crate::viewer::{Controls, MatchStatus, PanelSection, Shown};
use egui::{RichText, Ui};

pub(super) fn matching_section(ui: &mut Ui, controls: &mut Controls, shown: &Shown<'_>) {
    let c = &mut *controls;
    egui::CollapsingHeader::new("Motion matching")
        .default_open(c.view.opens(PanelSection::Matching))
        .show(ui, |ui| {
            let was = c.matching.on;
            ui.horizontal_wrapped(|ui| {
                ui.radio_value(&mut c.matching.on, false, "off");
                ui.radio_value(&mut c.matching.on, true, "motion matching")
                    .on_hover_text("the database frame nearest the pose and the goal, every 0.1 s; root motion applied");
            });
            if c.matching.on && !was {
                // The character walks away: the camera goes with it, as in a game.
                c.motion.follow_camera = true;
            }
            ui.label(RichText::new("WASD or the arrows steer (from the camera's view), Shift runs").weak());
            ui.add(egui::Slider::new(&mut c.matching.walk_speed, 0.1..=3.0).text("Walk speed (units/s)"));
            ui.add(egui::Slider::new(&mut c.matching.run_speed, 0.5..=8.0).text("Run speed (units/s)"));
            match &shown.match_status {
                MatchStatus::None => {}
                MatchStatus::Building(done, total) => {
                    let f = *done as f32 / (*total).max(1) as f32;
                    ui.add(
                        egui::ProgressBar::new(f)
                            .text(format!("building the database: {done} of {total} frames")),
                    );
                }
                MatchStatus::Failed(e) => {
                    super::error_label(ui, e);
                }
                MatchStatus::Ready => readouts(ui, c, shown),
            }
        });
}

fn readouts(ui: &mut Ui, c: &Controls, shown: &Shown<'_>) {
    let m = shown.matching;
    let Some(db) = m.database() else {
        return;
    };
    let candidates: usize = db.index.ranges().iter().map(|r| r.len()).sum();
    ui.label(format!(
        "database: {} frames ({candidates} candidates), {} features",
        db.frames.len(),
        crate::pose::FEATURES
    ));
    if !c.matching.on {
        return;
    }
    let s = &m.stats;
    let clip = (shown.playing_clip)
        .and_then(|k| shown.character.clips.get(k))
        .map_or("-", |k| k.clip.name());
    ui.label(format!(
        "playing {clip:?} at {:.2} s (frame {})",
        shown.clip_time_shown,
        s.frame.map_or("-".into(), |f| f.to_string())
    ));
    ui.label(format!(
        "goal {:.2} units/s; {} searches, {} switches; last search {:.1} us",
        c.matching.velocity.length(),
        s.searches,
        s.switches,
        s.search_secs * 1e6
    ));
    ui.label(format!("best cost {:.3}:", s.cost));
    egui::Grid::new("match costs").show(ui, |ui| {
        for (g, cost) in db.groups.iter().zip(&s.group_costs) {
            ui.label(&g.name);
            ui.label(format!("{cost:.3}"));
            ui.end_row();
        }
    });
}

/// Motion matching's last search as the "Over time" section lists it: the best candidates
/// with each feature group's share of their cost, the frame playing, which was chosen and why.
pub(super) fn candidates(ui: &mut Ui, c: &mut Controls, shown: &Shown<'_>) {
    ui.checkbox(
        &mut c.over_time.match_candidates,
        "Motion matching's candidates",
    )
    .on_hover_text("each search's ten best frames and their costs by feature (motion matching on)");
    if !c.over_time.match_candidates {
        return;
    }
    let Some(report) = &shown.matching.last_report else {
        ui.label(RichText::new("no search yet (motion matching is off, or building)").weak());
        return;
    };
    let clip = |k: usize| shown.character.clips.get(k).map_or("-", |d| d.clip.name());
    ui.label(format!(
        "search {}: {}",
        report.search,
        report.outcome.why()
    ));
    let chosen = match (&report.playing, report.outcome.switched()) {
        (Some(p), false) => Some(p.frame),
        _ => report.candidates.first().map(|k| k.frame),
    };
    egui::ScrollArea::horizontal().show(ui, |ui| {
        egui::Grid::new("match-candidates")
            .striped(true)
            .show(ui, |ui| {
                ui.label("");
                ui.label("clip");
                ui.label("frame");
                ui.label("time");
                ui.label("cost");
                for g in &report.groups {
                    ui.label(g);
                }
                ui.end_row();
                let playing = report.playing.iter().map(|p| ("playing", p));
                let ranked = report.candidates.iter().enumerate().map(|(k, p)| {
                    let rank: &'static str = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
                        .get(k)
                        .copied()
                        .unwrap_or("");
                    (rank, p)
                });
                for (rank, k) in playing.chain(ranked) {
                    let mark = if Some(k.frame) == chosen { " *" } else { "" };
                    ui.label(format!("{rank}{mark}"));
                    ui.label(clip(k.clip));
                    ui.label(k.frame.to_string());
                    ui.label(format!("{:.2}", k.time_secs));
                    ui.label(format!("{:.3}", k.cost));
                    for cost in &k.group_costs {
                        ui.label(format!("{cost:.3}"));
                    }
                    ui.end_row();
                }
            });
    });
    ui.label(RichText::new("* plays after the search").weak());
}
