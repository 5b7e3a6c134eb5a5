//! `skinscope retarget`: clips from a BVH take and another glTF put on a character in another
//! naming convention and rest pose, written into its file as glTF animations that the Khronos
//! validator accepts and that play as the live retarget does.

use crate::common::{self, skinscope};
use crate::retarget_map::cesium_copy;
use glam::Vec3;
use skinscope::character::Character;
use skinscope::import::{self, RetargetPlan};

/// Every joint's model-space position, `c` playing its clip `clip` at `t`.
fn positions(c: &Character, clip: usize, t: f32) -> Vec<Vec3> {
    common::joint_positions(&c.skeleton, &c.clips[clip].clip, t)
}

#[test]
fn a_batch_of_takes_written_into_the_character_plays_as_the_live_retarget() {
    let dir = common::temp_dir("retarget-export");
    let builtin = skinscope::builtin::character().unwrap();
    let walk = common::walk_bvh(&builtin, "retarget-export-walk");
    let other = cesium_copy("mixamo", false, &dir);
    let to = cesium_copy("unreal", true, &dir);
    let out = dir.join("out.glb");
    let (code, text, err) = skinscope(&[
        "retarget",
        "--from",
        walk.to_str().unwrap(),
        "--from",
        other.to_str().unwrap(),
        "--to",
        to.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--ik-limbs",
    ]);
    assert_eq!(code, 0, "{err}");
    println!("{text}");
    assert!(text.contains("added clip"), "{text}");
    // The Khronos validator finds no error in it.
    let issues = common::validate(&out);
    assert_eq!(issues["numErrors"], 0, "{issues:#}");
    // Everything of the file is kept: its nodes, meshes, skins and its own clip.
    let (before, after) = (
        common::RawGltf::read_glb(&to),
        common::RawGltf::read_glb(&out),
    );
    for key in ["nodes", "meshes", "skins", "materials", "scenes"] {
        assert_eq!(before.json[key], after.json[key], "{key}");
    }
    let target = import::load(&to).unwrap();
    let written = import::load(&out).unwrap();
    assert_eq!(written.clips.len(), target.clips.len() + 2);
    // Each added clip poses every joint as the live retarget does (`--clips-from`, with the same
    // settings), at its keys and between them.
    let height = skinscope::pose::character_height(&target);
    let mut plan = RetargetPlan::default();
    plan.settings.ik_limbs = true;
    let reach = import::Reach::default();
    let mut live = target.clone();
    for source in [&walk, &other] {
        let (clips, _) = import::clips_from(source, &live, Some(&plan), &reach).unwrap();
        live.clips.extend(clips);
    }
    for k in target.clips.len()..live.clips.len() {
        let name = live.clips[k].clip.name();
        let w = written
            .clips
            .iter()
            .position(|c| c.clip.name() == name)
            .unwrap();
        let d = live.clips[k].clip.duration_secs();
        let mut worst = 0.0f32;
        for s in 0..=97 {
            let t = d * s as f32 / 97.0;
            let (a, b) = (positions(&live, k, t), positions(&written, w, t));
            for (p, q) in a.iter().zip(&b) {
                worst = worst.max(p.distance(*q));
            }
        }
        println!("{name}: worst joint {:.2e} of the height", worst / height);
        assert!(worst <= 1e-4 * height, "{name}: {worst}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn retarget_refuses_what_it_cannot_write_and_names_it() {
    let dir = common::temp_dir("retarget-refusals");
    let to = cesium_copy("unreal", false, &dir);
    let missing = dir.join("missing.bvh");
    let out = dir.join("out.glb");
    let (code, _, err) = skinscope(&[
        "retarget",
        "--from",
        missing.to_str().unwrap(),
        "--to",
        to.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.bvh"), "{err}");
    assert!(!out.exists());
    // Not a .glb to write.
    let (code, _, err) = skinscope(&[
        "retarget",
        "--from",
        to.to_str().unwrap(),
        "--to",
        to.to_str().unwrap(),
        "--out",
        dir.join("out.gltf").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("written as .glb"), "{err}");
    // A map with a wrong setting: its pointer.
    let map = dir.join("map.json");
    std::fs::write(&map, r#"{"offsets": {"tail": [0, 0, 10]}}"#).unwrap();
    let (code, _, err) = skinscope(&[
        "retarget",
        "--from",
        to.to_str().unwrap(),
        "--to",
        to.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--map",
        map.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("map.json: /offsets/tail: not a chain"),
        "{err}"
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_map_file_round_trips_with_its_settings() {
    let mut plan = RetargetPlan {
        pairs: Some(vec![("mixamorig:Hips".into(), "pelvis".into())]),
        ..Default::default()
    };
    plan.settings.offsets[skinscope::anim::BodyChain::LeftArm.index()] = Vec3::new(0.0, 0.0, -12.5);
    plan.settings.ik_limbs = true;
    plan.settings.root_motion = skinscope::anim::RootTravel::Remove;
    plan.settings.motion_scale = Some(0.01);
    let text = plan.to_json();
    assert_eq!(RetargetPlan::parse(&text).unwrap(), plan, "{text}");
    // The plain form: pairs only.
    let plain = RetargetPlan::parse(r#"{"Hips": "pelvis"}"#).unwrap();
    assert_eq!(
        plain.pairs(),
        Some(&[("Hips".to_string(), "pelvis".to_string())][..])
    );
    assert_eq!(plain.settings, Default::default());
    for (bad, says) in [
        (
            r#"{"joints": {"Hips": 3}}"#,
            "/joints/Hips: the target joint is a name",
        ),
        (
            r#"{"root_motion": "drift"}"#,
            "/root_motion: \"keep\", \"remove\" or a factor",
        ),
        (r#"{"motion_scale": -1}"#, "/motion_scale: a scale above 0"),
        (
            r#"{"offsets": {"left_leg": [1, 2]}}"#,
            "/offsets/left_leg: three angles",
        ),
        (
            r#"{"ik_limbs": true, "ik": true}"#,
            "/ik: \"ik\" is not a key",
        ),
    ] {
        let e = RetargetPlan::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn the_panel_maps_fixes_a_pair_applies_and_saves_the_character_with_its_clips() {
    use egui_kittest::kittest::Queryable;
    use skinscope::viewer::retarget::RetargetCommand;
    use skinscope::viewer::{UiCommand, Viewer};
    let dir = common::temp_dir("retarget-panel");
    let source = cesium_copy("mixamo", false, &dir);
    let to = cesium_copy("unknown", true, &dir);
    let character = import::load(&to).unwrap();
    let mut h = common::window_frames(Viewer::new(character, Some(to.clone())), (1100.0, 4000.0));
    h.run();
    h.get_by_label("Retarget...").click();
    h.run();
    // Browse... (the section's, below the File section's) asks the window for its file dialog.
    h.get_all_by_label("Browse...").last().unwrap().click();
    h.run();
    assert!(
        (h.state().window_requests)
            .contains(&skinscope::viewer::WindowRequest::BrowseForRetargetSource)
    );
    h.state_mut().controls.retarget_source = source.display().to_string();
    h.get_by_label("Open source").click();
    h.run();
    let state = &h.state().retarget;
    let src = state.source.as_ref().unwrap();
    // Every body part auto-mapped, by the skeleton's shape (the target's names say nothing).
    let (t, s) = (&h.state().character.skeleton, &src.skeleton);
    let head = t.find("Bone.004").unwrap();
    assert_eq!(
        src.map.source_of[head],
        Some((
            s.find("mixamorig:Head").unwrap(),
            skinscope::anim::MatchKind::Hierarchy
        ))
    );
    // How each was matched is shown beside it.
    assert!(h.query_all_by_label("by position in the hierarchy").count() >= 19);
    // A pair changed by hand (as its drop-down does), then applied: the clip plays.
    let neck = s.find("mixamorig:Neck").unwrap();
    h.state_mut()
        .apply(UiCommand::Retarget(RetargetCommand::Pair(head, Some(neck))));
    h.run();
    assert_eq!(h.query_all_by_label("by hand").count(), 1);
    let clips = h.state().character.clips.len();
    h.get_by_label("Apply: add its clips").click();
    h.run();
    assert_eq!(
        h.state().character.clips.len(),
        clips + 1,
        "{:?}",
        h.state().retarget.said
    );
    // The settings' controls: the chain offsets, the overlay, a root-motion factor and a motion
    // scale of one's own (every control labelled, as the harness checks each frame).
    for label in [
        "Retarget pose: chain offsets (degrees about X, Y, Z)",
        "retarget pose over the source",
        "motion scale from the hip heights",
    ] {
        h.get_by_label(label).click();
        h.run();
    }
    let mut settings = h.state().retarget.settings.clone();
    assert_eq!(settings.motion_scale, Some(1.0));
    settings.root_motion = skinscope::anim::RootTravel::Scale(0.5);
    h.state_mut()
        .apply(UiCommand::Retarget(RetargetCommand::Settings(settings)));
    h.run();
    assert!(h.state().controls.retarget_overlay);
    // The map saved and read back; the character saved with the clip, valid glTF.
    let map = dir.join("map.json");
    h.state_mut().controls.retarget_map_path = map.display().to_string();
    h.get_by_label("Save map").click();
    h.run();
    let plan = RetargetPlan::read(&map).unwrap();
    assert!(
        plan.pairs()
            .unwrap()
            .contains(&("mixamorig:Neck".into(), "Bone.004".into()))
    );
    h.get_by_label("Save character with these clips").click();
    h.run();
    let saved = dir.join("cesium-unknown-a-pose-retargeted.glb");
    assert_eq!(
        import::load(&saved).unwrap().clips.len(),
        clips + 1,
        "{:?}",
        h.state().retarget.said
    );
    assert_eq!(common::validate(&saved)["numErrors"], 0);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn reduced_keys_stay_within_the_compression_bound() {
    let dir = common::temp_dir("retarget-reduce");
    let builtin = skinscope::builtin::character().unwrap();
    let walk = common::walk_bvh(&builtin, "retarget-reduce-walk");
    let to = cesium_copy("vrm", true, &dir);
    let (full, reduced) = (dir.join("full.glb"), dir.join("reduced.glb"));
    for (out, extra) in [(&full, None), (&reduced, Some("--reduce"))] {
        let mut args = vec![
            "retarget",
            "--from",
            walk.to_str().unwrap(),
            "--to",
            to.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--json",
        ];
        args.extend(extra);
        let (code, text, err) = skinscope(&args);
        assert_eq!(code, 0, "{err}");
        let report: serde_json::Value = serde_json::from_str(&text).unwrap();
        let clip = &report["sources"][0]["clips"][0];
        println!(
            "{}: {} keys, error {}",
            out.display(),
            clip["keys"],
            clip["error"]
        );
    }
    assert_eq!(common::validate(&reduced)["numErrors"], 0);
    let target = import::load(&to).unwrap();
    let (a, b) = (
        import::load(&full).unwrap(),
        import::load(&reduced).unwrap(),
    );
    let k = target.clips.len();
    let keys = |c: &Character| -> usize {
        c.clips[k]
            .clip
            .tracks()
            .iter()
            .map(|t| t.channel.times().len())
            .sum()
    };
    // Fewer keys (a 30 Hz walk keeps most of them at so tight a bound: 337 of 465), and every
    // joint and virtual vertex where the full clip puts it, within the bound (1e-4 of the
    // height at the skin's reach).
    assert!(
        keys(&b) * 10 < keys(&a) * 8,
        "{} of {} keys",
        keys(&b),
        keys(&a)
    );
    let settings = skinscope::pose::compression_settings(&target, None);
    let error = skinscope::anim::measure_clip_error(
        &target.skeleton,
        &a.clips[k].clip,
        &b.clips[k].clip,
        &settings.distances,
    );
    assert!(
        error <= settings.tolerance,
        "{error} over {}",
        settings.tolerance
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_window_refuses_a_retarget_source_or_map_it_cannot_read_before_it_opens() {
    let dir = common::temp_dir("retarget-window-refusals");
    let map = dir.join("map.json");
    std::fs::write(&map, r#"{"offsets": {"tail": [1, 2, 3]}}"#).unwrap();
    let source = common::shared("CesiumMan/CesiumMan.glb");
    let missing = dir.join("missing.bvh");
    for (args, says) in [
        (
            vec!["--retarget-from", missing.to_str().unwrap()],
            format!("--retarget-from {}", missing.display()),
        ),
        (
            vec![
                "--retarget-from",
                source.to_str().unwrap(),
                "--retarget-map",
                map.to_str().unwrap(),
            ],
            format!(
                "--retarget-map {}: /offsets/tail: not a chain",
                map.display()
            ),
        ),
    ] {
        // Refused before a window is asked for: no display is needed to say so.
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_skinscope"))
            .args(&args)
            .args(["--frames", "1"])
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(&says), "{err}");
    }
    std::fs::remove_dir_all(dir).ok();
}
