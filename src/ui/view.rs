//! The panel's display sections: what is drawn, morph sliders, and the skinning-debug views
//! (palettes, split view, colourings).

use super::file::camera_and_scene;
use super::legend;
use crate::debug::colors::ColorView;
use crate::pose::PaletteMode;
use crate::viewer::{Compared, Controls, Shown, UiCommand};
use egui::{RichText, Ui};

pub(super) fn view_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    let c = &mut *controls;
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut c.view.show_mesh, "Mesh");
        ui.checkbox(&mut c.view.show_bones, "Bones");
        ui.checkbox(&mut c.view.show_joint_names, "Joint names");
        ui.checkbox(&mut c.view.wireframe, "Wireframe");
        ui.checkbox(&mut c.view.grid, "Grid");
        ui.checkbox(&mut c.view.shadows, "Shadows").on_hover_text(
            "The key light's shadow on a solid ground (in place of the grid), darkened where the character touches it",
        );
    });
    if c.view.show_bones {
        bone_options(ui, c);
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("Palette");
        ui.radio_value(&mut c.view.palette, PaletteMode::Animated, "Animated");
        ui.radio_value(&mut c.view.palette, PaletteMode::Bind, "Bind");
        ui.radio_value(&mut c.view.palette, PaletteMode::Identity, "Identity");
    });
    let limit = shown.crowd_limit;
    ui.horizontal_wrapped(|ui| {
        ui.label("Crowd");
        ui.add(
            egui::DragValue::new(&mut c.view.crowd)
                .range(0..=limit)
                .speed(10.0),
        )
        .on_hover_text(format!(
            "copies on a grid, each at its own phase and weight of the blend's clips A and B; at most {limit} on this GPU for this character"
        ));
        ui.checkbox(&mut c.view.crowd_lod, "Level of detail").on_hover_text(
            "pose members beyond 10, 20 and 40 heights from the camera every 2nd, 4th and 8th frame, held between; their events still fire once per crossing",
        );
    });
    camera_and_scene(ui, controls, shown, commands);
    let c = &mut *controls;
    ui.horizontal_wrapped(|ui| {
        ui.label("Tone mapping");
        use crate::display::ToneMap;
        ui.radio_value(
            &mut c.view.tone_map,
            ToneMap::KhronosNeutral,
            "Khronos Neutral",
        );
        ui.radio_value(&mut c.view.tone_map, ToneMap::Aces, "ACES");
        ui.radio_value(&mut c.view.tone_map, ToneMap::None, "none");
    });
    ui.add(
        egui::Slider::new(&mut c.view.exposure_ev, -4.0..=4.0)
            .text("Exposure (EV)")
            .fixed_decimals(1),
    );
    ui.horizontal_wrapped(|ui| {
        if ui.button("Frame (F)").clicked() {
            commands.push(UiCommand::FrameCamera);
        }
        if ui.button("Reset (R)").clicked() {
            commands.push(UiCommand::ResetCamera);
        }
    });
}

/// Each morphed mesh's targets by name, a slider each: live weights, or (with the switch on)
/// weights held against the clip.
pub(super) fn morph_section(ui: &mut Ui, controls: &mut Controls, shown: &Shown<'_>) {
    let morphed: Vec<usize> = (0..shown.character.meshes.len())
        .filter(|&m| !shown.character.meshes[m].target_names.is_empty())
        .collect();
    if morphed.is_empty() {
        return;
    }
    ui.checkbox(
        &mut controls.morphs.hold,
        "Override the clip's morph weights",
    );
    for m in morphed {
        if !controls.morphs.hold {
            let live = shown.live_morph_weights(m).to_vec();
            if let Some(sliders) = controls.morphs.sliders.get_mut(m) {
                sliders.clone_from(&live);
            }
        }
        let mesh = &shown.character.meshes[m];
        let held = controls.morphs.hold;
        ui.label(RichText::new(format!("{} morph targets", mesh.name)).strong());
        let Some(sliders) = controls.morphs.sliders.get_mut(m) else {
            continue;
        };
        ui.add_enabled_ui(held, |ui| {
            for (name, weight) in mesh.target_names.iter().zip(sliders.iter_mut()) {
                ui.add(
                    egui::Slider::new(weight, 0.0..=1.0)
                        .text(name)
                        .fixed_decimals(3),
                );
            }
        });
    }
    ui.separator();
}

pub(super) fn debug_section(ui: &mut Ui, controls: &mut Controls, shown: &Shown<'_>) {
    let c = &mut *controls;
    egui::ComboBox::from_label("Colour by")
        .selected_text(color_view_name(c.debug.color_view))
        .show_ui(ui, |ui| {
            for view in [
                ColorView::Material,
                ColorView::DominantJoint,
                ColorView::SelectedJointWeight,
                ColorView::WeightSumDeviation,
                ColorView::InfluenceCount,
                ColorView::Displacement,
                ColorView::MorphDisplacement,
                ColorView::MuscleDisplacement,
            ] {
                ui.selectable_value(&mut c.debug.color_view, view, color_view_name(view));
            }
        });
    if matches!(
        c.debug.color_view,
        ColorView::Displacement | ColorView::MorphDisplacement | ColorView::MuscleDisplacement
    ) {
        heat_range(ui, c);
    }
    split_choice(ui, c);
    ui.horizontal_wrapped(|ui| {
        ui.label("Skinning");
        for method in crate::anim::SkinningMethod::ALL {
            ui.radio_value(&mut c.skinning.method, method, method.name());
        }
    });
    if c.compared() == Compared::OtherSkinning {
        ui.horizontal_wrapped(|ui| {
            ui.label("Right half");
            for method in crate::anim::SkinningMethod::ALL {
                if method != c.skinning.method {
                    ui.radio_value(&mut c.debug.compared_skinning, method, method.name());
                }
            }
        });
    }
    ui.horizontal_wrapped(|ui| {
        use crate::display::SkinPass;
        ui.label("Skin in");
        ui.radio_value(&mut c.skinning.skin_pass, SkinPass::Auto, "auto")
            .on_hover_text("the compute pass when its output fits the GPU's buffers (it measured faster on lavapipe)");
        ui.radio_value(&mut c.skinning.skin_pass, SkinPass::Vertex, "vertex shader")
            .on_hover_text("every pass that draws the mesh skins each vertex again");
        ui.radio_value(&mut c.skinning.skin_pass, SkinPass::Compute, "compute pass")
            .on_hover_text("once a frame into a buffer every pass reads; clicks pick among the vertices read back");
    });
    // A device without compute shaders (WebGL2) skins in the vertex shader whatever is asked,
    // and leaves out what runs in the skin pass.
    if shown.stats.skin_pass_why == crate::render::renderer::NO_COMPUTE {
        ui.label(RichText::new(NO_COMPUTE_SAID).color(ui.visuals().warn_fg_color));
    }
    ui.checkbox(&mut c.debug.compressed, "Play compressed clips")
        .on_hover_text(
            "every clip compressed within 1e-4 of the character's height (inspect --compression)",
        );
    let choice = c.debug.color_view;
    legend::show(ui, controls, shown);
    let c = &mut *controls;
    if choice == ColorView::SelectedJointWeight && c.selected_joint.is_none() {
        ui.label(RichText::new("click a joint, or pick one in the skeleton").weak());
    }
    ui.label(RichText::new("click a joint to select it, a vertex to list its weights").weak());
    if let Some(p) = shown.picked_vertex {
        ui.label(format!(
            "vertex {} (instance {}, primitive {})",
            p.vertex, p.instance, p.primitive
        ));
        if p.influences.is_empty() {
            ui.label("  not skinned");
        } else {
            influence_table(ui, shown, p);
        }
    }
}

/// The picked vertex's influences: joint, palette index, weight, and each one's share of the
/// vertex's displacement in this frame.
fn influence_table(ui: &mut Ui, shown: &Shown<'_>, p: &crate::debug::picking::PickedVertex) {
    let rows = crate::debug::readout::influence_rows(shown.character, shown.pose, p);
    egui::Grid::new("vertex influences")
        .striped(true)
        .show(ui, |ui| {
            for head in ["joint", "palette", "weight", "share"] {
                ui.label(RichText::new(head).strong());
            }
            ui.end_row();
            for r in &rows {
                ui.label(&r.joint);
                ui.monospace(r.palette.to_string());
                ui.monospace(format!("{:.3}", r.weight));
                ui.monospace(format!("{:.0}%", r.share * 100.0))
                    .on_hover_text("the part of the vertex's move from its bind position this influence makes (linear blend)");
                ui.end_row();
            }
        });
}

/// What the split view's right half shows, in words (the choice and the half's label).
/// What the skinning rows say on a device without compute shaders.
const NO_COMPUTE_SAID: &str = "WebGL2: no compute shaders, so every pass skins in the vertex \
    shader; direct delta mush, the muscles and the ML corrective are not drawn (a browser with \
    WebGPU draws them)";

pub fn compared_name(c: &Controls, compared: Compared) -> String {
    match compared {
        Compared::Off => "off".to_string(),
        Compared::Palette(mode) => format!("{} palette", mode.name()),
        Compared::OtherClips if c.debug.compressed => "the raw clips".to_string(),
        Compared::OtherClips => "the compressed clips".to_string(),
        Compared::OtherSkinning => c.right_skinning().label().to_string(),
        Compared::MlReference => match c.ml.model.as_ref().map(|m| m.reference) {
            Some(crate::pose::MlReference::Muscles) => "the ML reference (muscles)".into(),
            _ => "the ML reference (direct delta mush)".into(),
        },
    }
}

/// One control for the split view: off, or what its right half compares with the left.
pub(super) fn split_choice(ui: &mut Ui, c: &mut Controls) {
    let mut chosen = c.compared();
    egui::ComboBox::from_label("Split view, right half")
        .selected_text(compared_name(c, chosen))
        .show_ui(ui, |ui| {
            for option in [
                Compared::Off,
                Compared::Palette(PaletteMode::Bind),
                Compared::Palette(PaletteMode::Identity),
                Compared::Palette(PaletteMode::Animated),
                Compared::OtherClips,
                Compared::OtherSkinning,
                Compared::MlReference,
            ] {
                if option != Compared::MlReference || c.ml.model.is_some() {
                    ui.selectable_value(&mut chosen, option, compared_name(c, option));
                }
            }
        })
        .response
        .on_hover_text("the left half is the frame as set; the right half the same frame under another palette, from the other clips (where the compression error lands), or skinned the other way (linear blend's volume loss at a twist against dual quaternions')");
    if chosen != c.compared() {
        c.set_compared(chosen);
    }
}

/// Where a displacement view's heat scale turns red: a part of the size (the default), the
/// largest displacement shown, or a distance the user sets (`render --color-range`).
fn heat_range(ui: &mut Ui, c: &mut Controls) {
    use crate::debug::colors::HeatRange;
    ui.horizontal_wrapped(|ui| {
        ui.label("Red at");
        let set = match c.debug.color_range {
            HeatRange::Distance(d) => d,
            _ => c.debug.color_distance,
        };
        ui.radio_value(
            &mut c.debug.color_range,
            HeatRange::OfSize,
            "part of the size",
        )
        .on_hover_text("a tenth of the posed bounds' diagonal (1% for the muscles)");
        ui.radio_value(
            &mut c.debug.color_range,
            HeatRange::Largest,
            "largest shown",
        )
        .on_hover_text("the largest displacement now drawn: the whole scale is always used");
        ui.radio_value(
            &mut c.debug.color_range,
            HeatRange::Distance(set),
            "distance",
        );
        if let HeatRange::Distance(d) = &mut c.debug.color_range {
            let speed = f64::from(*d) * 0.01;
            ui.add(egui::DragValue::new(d).speed(speed).range(1e-6..=1e6))
                .on_hover_text(
                    "in the file's units: 0.01 shows a 1 cm corrective on a character in metres",
                );
            c.debug.color_distance = *d;
        }
    });
}

pub(super) fn color_view_name(view: ColorView) -> &'static str {
    match view {
        ColorView::Material => "materials",
        ColorView::DominantJoint => "dominant joint",
        ColorView::SelectedJointWeight => "selected joint's weight",
        ColorView::WeightSumDeviation => "weight-sum deviation",
        ColorView::InfluenceCount => "influence count",
        ColorView::Displacement => "displacement vs the compared palette or clips",
        ColorView::MorphDisplacement => "morph displacement",
        ColorView::MuscleDisplacement => "muscle displacement",
    }
}

/// The bones' shape and axes (shown while the bones are).
fn bone_options(ui: &mut Ui, c: &mut Controls) {
    use crate::render::bones::BoneStyle;
    ui.horizontal_wrapped(|ui| {
        ui.label("Bones as");
        ui.radio_value(&mut c.view.bone_style, BoneStyle::Stick, "Sticks");
        ui.radio_value(&mut c.view.bone_style, BoneStyle::Octahedral, "Octahedral")
            .on_hover_text("Blender's bones: the square near the head follows the joint's own axes, so its roll shows");
        ui.radio_value(&mut c.view.bone_style, BoneStyle::Axes, "Axes")
            .on_hover_text("each joint's local axes: X red, Y green, Z blue");
    });
    ui.horizontal_wrapped(|ui| {
        let only = if c.view.bone_style == BoneStyle::Axes {
            "Selected joint only"
        } else {
            "Selected joint's axes"
        };
        ui.checkbox(&mut c.view.selected_axes, only);
        ui.checkbox(&mut c.view.bind_axes, "Bind axes beside").on_hover_text(
            "each joint's axes at bind time, from its inverse bind matrix, paler and shorter at the posed joint: at the bind pose they lie on the posed axes; a transposed or mirrored inverse bind turns them away",
        );
    });
}
