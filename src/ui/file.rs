//! The panel's file section (open, recent files, scenes, the built-in character) and the
//! camera and scene section.

use super::error_label;
use crate::viewer::{Controls, Shown, UiCommand};
use egui::{RichText, Ui};

pub(super) fn file_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    let name = shown.source.map_or_else(
        || format!("{} (built in)", shown.character.name),
        |p| p.display().to_string(),
    );
    ui.label(RichText::new(name).strong());
    if IN_BROWSER {
        page_files(ui, shown, commands);
    } else {
        disk_files(ui, controls, shown, commands);
    }
    if let Some(error) = shown.load_error {
        error_label(ui, &format!("Could not open: {error}"));
    }
}

/// The file's cameras (or the orbit camera) and, when it has several, its scenes.
pub(super) fn camera_and_scene(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    let names: Vec<String> = shown
        .character
        .cameras
        .iter()
        .map(|c| c.name.clone())
        .collect();
    if !names.is_empty() {
        let c = &mut *controls;
        let shown = c
            .view
            .file_camera
            .and_then(|k| names.get(k).cloned())
            .unwrap_or_else(|| "orbit".to_string());
        egui::ComboBox::from_label("Camera")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut c.view.file_camera, None, "orbit");
                for (k, name) in names.iter().enumerate() {
                    ui.selectable_value(&mut c.view.file_camera, Some(k), name);
                }
            });
    }
    let scenes = &shown.character.scenes;
    if scenes.len() > 1 {
        let mut scene = shown.character.scene;
        egui::ComboBox::from_label("Scene")
            .selected_text(scenes.get(scene).cloned().unwrap_or_default())
            .show_ui(ui, |ui| {
                for (k, name) in scenes.iter().enumerate() {
                    ui.selectable_value(&mut scene, k, name);
                }
            });
        if scene != shown.character.scene {
            commands.push(UiCommand::OpenScene(scene));
        }
    }
}

/// A browser page: it reads only the files the user gives it.
const IN_BROWSER: bool = cfg!(target_arch = "wasm32");

/// Opening from the disk: a path typed, the file dialog, a drop, the recent files.
fn disk_files(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    ui.horizontal_wrapped(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(&mut controls.path)
                .hint_text("path to .gltf, .glb or .bvh")
                .desired_width(200.0),
        );
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (ui.button("Open").clicked() || enter) && !controls.path.trim().is_empty() {
            commands.push(UiCommand::Open(controls.path.trim().into()));
        }
        if ui.button("Browse...").clicked() {
            commands.push(UiCommand::BrowseForFile);
        }
        if ui
            .button("Add clips")
            .on_hover_text(
                "add the clips of the file in the field (a .bvh take, or a glTF's clips), retargeted onto this character by joint names",
            )
            .clicked()
            && !controls.path.trim().is_empty()
        {
            commands.push(UiCommand::AddClips(controls.path.trim().into()));
        }
        if ui
            .button("Add clips from...")
            .on_hover_text("choose a .bvh take or a glTF whose clips are retargeted onto this character")
            .clicked()
        {
            commands.push(UiCommand::BrowseForClips);
        }
    });
    if shown.source.is_some()
        && ui
            .button("Built-in character")
            .on_hover_text("back to the mannequin this viewer ships")
            .clicked()
    {
        commands.push(UiCommand::OpenBuiltin);
    }
    ui.label(RichText::new("or drop a file on the window (a .bvh adds its take as a clip)").weak());
    let mut allow = shown.allow_outside;
    if ui
        .checkbox(&mut allow, "allow files outside the model's folder")
        .on_hover_text(
            "let a model's buffers and images come from anywhere but /proc, /sys and /dev \
             (a texture in ../textures, say); off, a model reads only its own folder (or the \
             --asset-root it was started with)",
        )
        .changed()
    {
        commands.push(UiCommand::AllowOutside(allow));
    }
    if !shown.recent.is_empty() {
        ui.collapsing("Recent files", |ui| {
            for path in shown.recent.iter().cloned() {
                if ui.link(path.display().to_string()).clicked() {
                    commands.push(UiCommand::Open(path));
                }
            }
        });
    }
}

/// Opening on a browser page: files picked or dropped, read through the browser.
fn page_files(ui: &mut Ui, shown: &Shown<'_>, commands: &mut Vec<UiCommand>) {
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Open...")
            .on_hover_text(
                "a .glb, a .gltf with its .bin and images (select them together), or a .bvh",
            )
            .clicked()
        {
            commands.push(UiCommand::BrowseForFile);
        }
        if ui
            .button("Add clips from...")
            .on_hover_text("a .bvh take or a glTF whose clips are retargeted onto this character")
            .clicked()
        {
            commands.push(UiCommand::BrowseForClips);
        }
        if shown.source.is_some() && ui.button("Built-in character").clicked() {
            commands.push(UiCommand::OpenBuiltin);
        }
    });
    ui.label(
        RichText::new("or drop files on the page: a .gltf with its files together; a .bvh alone adds its take as a clip")
            .weak(),
    );
    ui.label(RichText::new("Recent files: in the desktop app (a page keeps no paths)").weak());
}
