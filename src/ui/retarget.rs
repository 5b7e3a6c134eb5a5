//! The panel's retargeting: a source opened beside the character, both skeletons drawn side by
//! side in their rest poses (or the character's retarget pose over the source's rest), matched
//! joints linked by colour; per target joint its source and how it was matched, with a
//! drop-down to change it; the chains' offsets and the settings; Apply, the map's Save and Load,
//! and Save character with these clips.

use egui::{Color32, Pos2, RichText, Stroke, Ui, Vec2};
use glam::Vec3;

use crate::anim::{BodyChain, RootTravel, Skeleton};
use crate::viewer::retarget::{RetargetCommand, RetargetSource};
use crate::viewer::{Controls, PanelSection, Shown, UiCommand};

pub(super) fn retarget_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    egui::CollapsingHeader::new("Retarget...")
        .default_open(controls.view.opens(PanelSection::Retarget))
        .show(ui, |ui| {
            if cfg!(target_arch = "wasm32") {
                // A page opens only the files given to it: "Add clips from..." retargets a
                // take auto-mapped; the map and its export need the desktop viewer.
                ui.label(
                    RichText::new(
                        "the map view and its export need the desktop viewer or `skinscope \
                         retarget`; here \"Add clips from...\" adds a take auto-mapped",
                    )
                    .weak(),
                );
                return;
            }
            ui.horizontal(|ui| {
                let label = ui.label("source");
                ui.add(
                    egui::TextEdit::singleline(&mut controls.retarget_source)
                        .hint_text(".bvh, .gltf or .glb")
                        .desired_width(160.0),
                )
                .labelled_by(label.id);
                if ui.button("Open source").clicked() && !controls.retarget_source.trim().is_empty()
                {
                    let path = controls.retarget_source.trim().into();
                    commands.push(UiCommand::Retarget(RetargetCommand::Open(path)));
                }
                if ui
                    .button("Browse...")
                    .on_hover_text("choose a .bvh take or a glTF to retarget from")
                    .clicked()
                {
                    commands.push(UiCommand::BrowseForRetargetSource);
                }
            });
            let state = shown.retarget;
            if let Some(source) = &state.source {
                let target = &shown.character.skeleton;
                ui.checkbox(
                    &mut controls.retarget_overlay,
                    "retarget pose over the source",
                );
                skeletons(ui, source, target, controls.retarget_overlay);
                map_table(ui, source, target, commands);
                settings(ui, shown, commands);
                actions(ui, controls, shown, commands);
            }
            if let Some(said) = &state.said {
                ui.label(RichText::new(said).weak());
            }
        });
}

/// A joint's colour: its target joint's place around the hue circle.
fn colour(k: usize) -> Color32 {
    let hue = (k as f32 * 0.618_034).fract();
    egui::ecolor::Hsva::new(hue, 0.75, 0.95, 1.0).into()
}

/// Both skeletons from the front, each scaled to the canvas's height: side by side at rest, or
/// the character's retarget pose over the source's rest.
fn skeletons(ui: &mut Ui, source: &RetargetSource, target: &Skeleton, overlay: bool) {
    let (response, painter) =
        ui.allocate_painter(Vec2::new(ui.available_width(), 220.0), egui::Sense::hover());
    let rect = response.rect;
    painter.rect_filled(rect, 4.0, Color32::from_gray(24));
    let view = &source.view;
    let t_pose = if overlay {
        &view.retarget_pose
    } else {
        &view.target_rest
    };
    let mut source_colour = vec![Color32::GRAY; source.skeleton.joint_count()];
    let mut target_colour = vec![Color32::GRAY; target.joint_count()];
    for (t, m) in source.map.source_of.iter().enumerate() {
        if let Some((s, _)) = m {
            target_colour[t] = colour(t);
            source_colour[*s] = colour(t);
        }
    }
    let (left, right) = if overlay {
        (rect, rect)
    } else {
        let half = rect.width() / 2.0;
        (
            egui::Rect::from_min_size(rect.min, Vec2::new(half, rect.height())),
            egui::Rect::from_min_size(
                rect.min + Vec2::new(half, 0.0),
                Vec2::new(half, rect.height()),
            ),
        )
    };
    draw(
        &painter,
        &source.skeleton,
        &view.source_rest,
        &source_colour,
        left,
        overlay,
    );
    draw(&painter, target, t_pose, &target_colour, right, false);
    let note = if overlay {
        "grey lines: the source at rest; colours: the character in its retarget pose"
    } else {
        "left: the source at rest; right: the character; a colour links a pair"
    };
    ui.label(RichText::new(note).weak());
}

/// One skeleton in `rect`, front view (X across, Y up), scaled to fit its height; `faint`: its
/// bones grey.
fn draw(
    painter: &egui::Painter,
    skeleton: &Skeleton,
    at: &[Vec3],
    colours: &[Color32],
    rect: egui::Rect,
    faint: bool,
) {
    let Some((lo, hi)) = at.iter().fold(None, |b: Option<(Vec3, Vec3)>, p| {
        Some(b.map_or((*p, *p), |(lo, hi)| (lo.min(*p), hi.max(*p))))
    }) else {
        return;
    };
    let size = (hi.y - lo.y).max(hi.x - lo.x).max(1e-6);
    let scale = (rect.height() - 20.0) / size;
    let centre = (lo + hi) * 0.5;
    let to = |p: Vec3| {
        Pos2::new(
            rect.center().x + (p.x - centre.x) * scale,
            rect.center().y - (p.y - centre.y) * scale,
        )
    };
    for j in 0..skeleton.joint_count() {
        if let Some(p) = skeleton.parent(j) {
            let stroke = if faint {
                Stroke::new(1.0, Color32::from_gray(110))
            } else {
                Stroke::new(1.5, Color32::from_gray(170))
            };
            painter.line_segment([to(at[p]), to(at[j])], stroke);
        }
    }
    if faint {
        return;
    }
    for (j, &p) in at.iter().enumerate() {
        painter.circle_filled(to(p), 3.0, colours[j]);
    }
}

/// Per target joint that takes motion or is a body part: its source (a drop-down) and how it
/// was matched; then the joints left unmatched.
fn map_table(
    ui: &mut Ui,
    source: &RetargetSource,
    target: &Skeleton,
    commands: &mut Vec<UiCommand>,
) {
    let parts = &source.view.target_parts;
    egui::ScrollArea::vertical()
        .max_height(220.0)
        .min_scrolled_height(220.0)
        .id_salt("retarget map")
        .show(ui, |ui| {
            egui::Grid::new("retarget map grid")
                .striped(true)
                .show(ui, |ui| {
                    ui.label(RichText::new("joint").strong());
                    ui.label(RichText::new("source").strong());
                    ui.label(RichText::new("matched").strong());
                    ui.end_row();
                    for (t, part) in parts.iter().enumerate() {
                        let m = source.map.source_of[t];
                        if m.is_none() && part.is_none() {
                            continue;
                        }
                        let name = &target.names()[t];
                        let label = ui.label(RichText::new(name).color(if m.is_some() {
                            colour(t)
                        } else {
                            Color32::GRAY
                        }));
                        let shown = m.map_or("(none)".to_string(), |(s, _)| {
                            source.skeleton.names()[s].clone()
                        });
                        let mut chosen = m.map(|(s, _)| s);
                        egui::ComboBox::from_id_salt(("retarget source of", t))
                            .selected_text(shown)
                            .show_ui(ui, |ui| {
                                ui.selectable_value(&mut chosen, None, "(none)");
                                for (s, n) in source.skeleton.names().iter().enumerate() {
                                    ui.selectable_value(&mut chosen, Some(s), n);
                                }
                            })
                            .response
                            .labelled_by(label.id);
                        if chosen != m.map(|(s, _)| s) {
                            commands.push(UiCommand::Retarget(RetargetCommand::Pair(t, chosen)));
                        }
                        ui.label(m.map_or("not matched", |(_, k)| k.label()));
                        ui.end_row();
                    }
                });
        });
    let unmatched: Vec<&str> = (0..target.joint_count())
        .filter(|&t| source.map.source_of[t].is_none() && parts[t].is_some())
        .map(|t| target.names()[t].as_str())
        .collect();
    if !unmatched.is_empty() {
        ui.add(
            egui::Label::new(
                RichText::new(format!("unmatched body parts: {}", unmatched.join(", ")))
                    .color(ui.visuals().warn_fg_color),
            )
            .wrap(),
        );
    }
}

/// The chains' offsets, IK limbs, rotations only, the root's travel and the motion's scale.
fn settings(ui: &mut Ui, shown: &Shown<'_>, commands: &mut Vec<UiCommand>) {
    let mut s = shown.retarget.settings.clone();
    ui.collapsing(
        "Retarget pose: chain offsets (degrees about X, Y, Z)",
        |ui| {
            for chain in BodyChain::ALL {
                ui.horizontal(|ui| {
                    let label = ui.label(chain.key());
                    let o = &mut s.offsets[chain.index()];
                    for v in [&mut o.x, &mut o.y, &mut o.z] {
                        ui.add(egui::DragValue::new(v).range(-180.0..=180.0).speed(0.5))
                            .labelled_by(label.id);
                    }
                });
            }
        },
    );
    ui.checkbox(&mut s.ik_limbs, "IK limbs (feet keep their contacts)");
    ui.checkbox(&mut s.rotation_only, "rotations only");
    ui.horizontal(|ui| {
        let label = ui.label("root motion");
        let mut kind = match s.root_motion {
            RootTravel::Keep => 0,
            RootTravel::Remove => 1,
            RootTravel::Scale(_) => 2,
        };
        egui::ComboBox::from_id_salt("retarget root motion")
            .selected_text(["keep", "remove", "scale"][kind])
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut kind, 0, "keep");
                ui.selectable_value(&mut kind, 1, "remove");
                ui.selectable_value(&mut kind, 2, "scale");
            })
            .response
            .labelled_by(label.id);
        s.root_motion = match (kind, s.root_motion) {
            (0, _) => RootTravel::Keep,
            (1, _) => RootTravel::Remove,
            (_, RootTravel::Scale(k)) => {
                let mut k = k;
                ui.add(egui::DragValue::new(&mut k).range(0.0..=10.0).speed(0.01))
                    .labelled_by(label.id);
                RootTravel::Scale(k)
            }
            _ => RootTravel::Scale(1.0),
        };
    });
    ui.horizontal(|ui| {
        let mut auto = s.motion_scale.is_none();
        let label = ui.checkbox(&mut auto, "motion scale from the hip heights");
        s.motion_scale = match (auto, s.motion_scale) {
            (true, _) => None,
            (false, Some(k)) => {
                let mut k = k;
                ui.add(
                    egui::DragValue::new(&mut k)
                        .range(0.001..=1000.0)
                        .speed(0.01),
                )
                .labelled_by(label.id);
                Some(k)
            }
            (false, None) => Some(1.0),
        };
    });
    if s != shown.retarget.settings {
        commands.push(UiCommand::Retarget(RetargetCommand::Settings(s)));
    }
}

/// Apply, the map's Save and Load, and Save character with these clips.
fn actions(ui: &mut Ui, controls: &mut Controls, shown: &Shown<'_>, commands: &mut Vec<UiCommand>) {
    if ui
        .button("Apply: add its clips")
        .on_hover_text(
            "retarget the source's clips with this map and settings and add them to the character",
        )
        .clicked()
    {
        commands.push(UiCommand::Retarget(RetargetCommand::Apply));
    }
    ui.horizontal(|ui| {
        let label = ui.label("map file");
        ui.text_edit_singleline(&mut controls.retarget_map_path)
            .labelled_by(label.id);
        let path = controls.retarget_map_path.trim();
        if ui.button("Save map").clicked() && !path.is_empty() {
            commands.push(UiCommand::Retarget(RetargetCommand::SaveMap(path.into())));
        }
        if ui.button("Load map").clicked() && !path.is_empty() {
            commands.push(UiCommand::Retarget(RetargetCommand::LoadMap(path.into())));
        }
    });
    if shown.retarget.applied.is_empty() || cfg!(target_arch = "wasm32") {
        return;
    }
    if controls.retarget_save_path.is_empty()
        && let Some(p) = &shown.retargeted_path
    {
        controls.retarget_save_path = p.display().to_string();
    }
    ui.horizontal(|ui| {
        let label = ui.label("save as");
        ui.text_edit_singleline(&mut controls.retarget_save_path)
            .labelled_by(label.id);
        if ui.button("Save character with these clips").clicked()
            && !controls.retarget_save_path.is_empty()
        {
            let path = controls.retarget_save_path.clone().into();
            commands.push(UiCommand::Retarget(RetargetCommand::SaveCharacter(path)));
        }
    });
}
