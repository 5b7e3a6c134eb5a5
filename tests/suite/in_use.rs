//! The systems used as an artist, a skinning-bug hunter and a tester would, on takes and files
//! the project had not seen: each case here gave a wrong or confusing result before its fix.

use crate::common;

use common::{skinscope, temp_dir};

/// Exit code 2 and a message containing `says`.
fn refused(args: &[&str], says: &str) {
    let (code, _, err) = skinscope(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
}

#[test]
fn negative_values_get_range_errors_naming_their_option_not_clap_s_unexpected_argument() {
    for (args, option) in [
        (
            &["palette", "--root-motion", "driven", "--drive-speed", "-1"][..],
            "--drive-speed",
        ),
        (
            &[
                "palette",
                "--physics",
                "powered",
                "--physics-stiffness",
                "-1",
                "--simulate",
                "1",
            ],
            "--physics-stiffness",
        ),
        (&["palette", "--mocap-wait", "-1"], "--mocap-wait"),
        (
            &["palette", "--mocap-blend-back", "-1"],
            "--mocap-blend-back",
        ),
        (
            &["check", "--skinning", "ddm", "--ddm-kappa", "-1"],
            "--ddm-kappa",
        ),
        (
            &["inspect", "--compression", "--tolerance", "-1"],
            "--tolerance",
        ),
    ] {
        let (code, _, err) = skinscope(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(option), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}

#[test]
fn inspect_defaults_to_the_built_in_character_as_every_other_command_does() {
    let (code, out, err) = skinscope(&["inspect"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("skinscope_mannequin.glb (built in)"), "{out}");
    let (code, out, err) = skinscope(&["inspect", "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["loaded"], true, "{out}");
}

#[test]
fn an_option_a_still_does_not_use_is_refused_saying_what_it_needs() {
    let dir = temp_dir("in-use-unused");
    let out = dir.join("x.png");
    refused(
        &[
            "render",
            "--crowd",
            "10",
            "--crowd-lod",
            "--out",
            out.to_str().unwrap(),
        ],
        "--crowd-lod poses far members every few frames of a sequence: give --to",
    );
    assert!(!out.exists());
    // With --to it records.
    let gif = dir.join("x.gif");
    let (code, _, err) = skinscope(&[
        "render",
        "--crowd",
        "4",
        "--crowd-lod",
        "--size",
        "32x32",
        "--to",
        "0.1",
        "--fps",
        "10",
        "--out",
        gif.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(gif.exists());
}

#[test]
fn a_truncated_motion_database_says_it_is_cut_short() {
    let dir = temp_dir("in-use-db");
    let db = dir.join("walk.db");
    let (code, _, err) = skinscope(&["match-db", "--out", db.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&db).unwrap();
    for keep in [bytes.len() / 2, bytes.len() - 4] {
        let cut = dir.join(format!("cut{keep}.db"));
        std::fs::write(&cut, &bytes[..keep]).unwrap();
        let cut = cut.to_str().unwrap();
        refused(
            &[
                "palette",
                "--motion-matching",
                "--simulate",
                "1",
                "--motion-db",
                cut,
            ],
            &format!("--motion-db {cut}: cut short: its "),
        );
    }
}

/// The built-in character's `clip` as a BVH whose rest is a T-pose: each arm's rest offsets
/// turned by R (the upper arm's bone laid horizontal), the motion compensated so that every
/// joint's world position is the original's (R⁻¹ after the upper arm's rotation, R q R⁻¹ on the
/// joints below it); each joint without a child ends in an End Site.
fn t_pose_bvh(c: &skinscope::character::Character, clip: &skinscope::anim::Clip) -> String {
    use glam::{Quat, Vec3};
    let s = &c.skeleton;
    let children = |j: usize| -> Vec<usize> {
        (0..s.joint_count())
            .filter(|&k| s.parent(k) == Some(j))
            .collect()
    };
    // Per joint: the turn R of the arm it lies in, applied to its offset (not the upper arm's
    // own, which hangs from the clavicle); and R for each upper arm.
    let mut turn = vec![Quat::IDENTITY; s.joint_count()];
    let mut upper_arm = vec![None; s.joint_count()];
    for (arm, side) in [("upperarm_l", Vec3::X), ("upperarm_r", -Vec3::X)] {
        let a = s.find(arm).unwrap();
        let bone = s.rest()[children(a)[0]].translation.normalize();
        let r = Quat::from_rotation_arc(bone, side);
        upper_arm[a] = Some(r);
        let mut below = children(a);
        while let Some(j) = below.pop() {
            turn[j] = r;
            below.extend(children(j));
        }
    }
    let local = |j: usize, q: Quat| match upper_arm[j] {
        // The upper arm: its rotation, then R⁻¹ (its children's offsets carry R).
        Some(r) => q * r.inverse(),
        None => turn[j] * q * turn[j].inverse(),
    };
    common::bvh_written(
        c,
        clip,
        &common::BvhRest {
            turn: turn.clone(),
            local: Some(&local),
            end_sites: true,
        },
    )
}

/// A joint's world rotation in `palette --json`'s document.
fn world_rotation(json: &serde_json::Value, name: &str) -> glam::Quat {
    let (_, rotation, _) = common::world_from_joint(json, name).to_scale_rotation_translation();
    rotation
}

#[test]
fn a_t_pose_take_on_an_a_pose_character_turns_every_joint_as_the_original_leaves_included() {
    let c = skinscope::builtin::character().unwrap();
    let wave = c.clips.iter().find(|k| k.clip.name() == "wave").unwrap();
    let dir = temp_dir("in-use-t-pose");
    let take = dir.join("tpose.bvh");
    std::fs::write(&take, t_pose_bvh(&c, &wave.clip)).unwrap();
    let take = take.to_str().unwrap();
    let height = skinscope::pose::character_height(&c);
    let palette = |args: &[&str]| {
        let mut all = vec!["palette", "--json"];
        all.extend_from_slice(args);
        let (code, out, err) = skinscope(&all);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    for time in ["0.2", "0.7", "1.1"] {
        let want = palette(&["--clip", "wave", "--time", time]);
        let got = palette(&["--clips-from", take, "--clip", "tpose", "--time", time]);
        common::assert_joints_match(&c, &want, &got, 1e-4 * height, time);
        for name in c.skeleton.names().iter().filter(|n| *n != "mannequin") {
            let (a, b) = (world_rotation(&want, name), world_rotation(&got, name));
            let degrees = a.angle_between(b).to_degrees();
            assert!(
                degrees < 0.1,
                "{time} s, {name}: turned {degrees} degrees off"
            );
        }
    }
}

#[test]
fn the_muscles_are_drawn_whole_without_the_bones() {
    use skinscope::viewer::muscles::MuscleCommand;
    use skinscope::viewer::{UiCommand, Viewer};
    let c = skinscope::builtin::character().unwrap();
    let mut viewer = Viewer::new(c, None);
    viewer.controls.view.show_bones = false;
    viewer.controls.motion.show_scene = false;
    viewer.controls.muscles.show = true;
    viewer.frame(vec![UiCommand::Muscles(MuscleCommand::Own)], 1.0 / 60.0);
    viewer.frame(Vec::new(), 1.0 / 60.0);
    // The line overlay is drawn for the muscles alone.
    let options = skinscope::app::draw_options(&viewer.controls);
    assert!(options.bones, "the overlay is off with the bones");
    let lines = viewer.overlay_lines();
    let muscle_vertices = 2 * lines.len();
    assert!(muscle_vertices > 0);
    // Every one fits the renderer's overlay once fitted: none is cut (the legs' muscles come
    // after the arms').
    let gpu = skinscope::render::gpu::Gpu::headless().unwrap();
    let character = &viewer.character;
    let mut renderer = skinscope::render::renderer::Renderer::new(
        &gpu.device,
        &gpu.queue,
        character,
        skinscope::render::offscreen::COLOR_FORMAT,
        skinscope::draw::capacity(character, 1),
    );
    let joints: usize = character.skins.iter().map(|s| s.skin.len()).sum();
    let needed = joints * 8 + 8 + muscle_vertices;
    println!(
        "{muscle_vertices} muscle line vertices; the overlay held {}",
        renderer.line_capacity()
    );
    renderer.fit_lines(&gpu.device, needed);
    assert!(renderer.line_capacity() >= needed);
}

#[test]
fn simulate_and_driven_root_motion_play_the_first_clip_that_suits_them_on_any_file() {
    let cesium = common::shared("CesiumMan/CesiumMan.glb");
    let cesium = cesium.to_str().unwrap();
    // No state machine beside the file: --simulate plays the first clip, as the window does.
    let palette = |args: &[&str]| {
        let mut all = vec!["palette", "--json"];
        all.extend_from_slice(args);
        let (code, out, err) = skinscope(&all);
        assert_eq!(code, 0, "{args:?}: {err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let simulated = palette(&[cesium, "--simulate", "0.5"]);
    let clip = palette(&[cesium, "--clip", "0", "--simulate", "0.5"]);
    assert_eq!(simulated["nodes"], clip["nodes"]);
    for physics in ["powered", "limp"] {
        let (code, _, err) =
            skinscope(&["palette", cesium, "--physics", physics, "--simulate", "0.5"]);
        assert_eq!(code, 0, "{physics}: {err}");
    }
    // A --param still asks for a state machine.
    refused(
        &["palette", cesium, "--simulate", "0.5", "--param", "speed=1"],
        "no state machine",
    );
    // Driven root motion with no --clip starts on the first clip that moves: the Fox's Walk,
    // its Survey standing still.
    let fox = common::shared("Fox/Fox.glb");
    let fox = fox.to_str().unwrap();
    let driven = palette(&[fox, "--root-motion", "driven", "--time", "1"]);
    let walk = palette(&[
        fox,
        "--root-motion",
        "driven",
        "--clip",
        "Walk",
        "--time",
        "1",
    ]);
    assert_eq!(driven["nodes"], walk["nodes"]);
}

#[test]
fn per_joint_auto_fixes_the_candy_wrapper_the_built_in_character_ships_to_show() {
    use glam::Mat4;
    use skinscope::anim::{blended_skin_position, dq_entry};
    let c = skinscope::builtin::character().unwrap();
    // The twisting joint's parent, so the forearm's vertices between it and the twist joint
    // blend two dual-quaternion joints (the choice --dqs-joints forearm_r makes by hand).
    let roots = skinscope::pose::auto_dqs_joints(&c);
    let names: Vec<&str> = roots
        .iter()
        .map(|&j| c.skeleton.names()[j].as_str())
        .collect();
    assert_eq!(names, ["forearm_r"]);
    let pose = common::wrist_twisted(&c);
    let palette = pose.instance_palette(0).unwrap();
    let packed: Vec<Mat4> = palette.iter().map(dq_entry).collect();
    let joint_methods = skinscope::pose::auto_methods(&c);
    let mut method = Vec::new();
    skinscope::pose::palette_methods(
        &c,
        &pose.palette_base,
        pose.palette.len(),
        &joint_methods,
        &mut method,
    );
    let base = pose.palette_base[0] as usize;
    let method = &method[base..base + palette.len()];
    let primitives = &c.meshes[0].primitives;
    let (bind, posed, slab) = common::twist_section_areas(&c, &pose, &mut |p, v, q| {
        let s = primitives[p].skinning.as_ref().unwrap();
        let influences = s.joints[v].map(u32::from).into_iter().zip(s.weights[v]);
        blended_skin_position((palette, &packed, method), influences, q).unwrap()
    });
    assert!(slab > 20, "{slab}");
    // Dual quaternions alone keep more than 90% of the wrist's section; linear blend under half.
    assert!(
        posed > 0.9 * bind,
        "auto keeps {:.0}% of the section",
        100.0 * posed / bind
    );
}

#[test]
fn direct_delta_mush_is_precomputed_once_per_mesh_and_parameters_across_commands() {
    let dir = temp_dir("in-use-ddm-cache");
    let cache = dir.join("cache");
    let run = |out: &str, extra: &[&str]| {
        let out = dir.join(out);
        let mut args = vec![
            "pose",
            "--skinning",
            "ddm",
            "--ddm-iterations",
            "5",
            "--clip",
            "twist",
        ];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_skinscope"))
            .args(&args)
            .env("SKINSCOPE_CACHE_DIR", &cache)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        std::fs::read_to_string(out).unwrap()
    };
    let first = run("first.obj", &[]);
    let saved: Vec<_> = std::fs::read_dir(cache.join("ddm"))
        .unwrap()
        .flatten()
        .collect();
    assert_eq!(saved.len(), 1, "one precomputation saved");
    // Read back: the same vertices to the digit.
    assert_eq!(run("second.obj", &[]), first);
    // A damaged cache is not used: precomputed again, the same result, saved whole again.
    let path = saved[0].path();
    let mut bytes = std::fs::read(&path).unwrap();
    let half = bytes.len() / 2;
    bytes.truncate(half);
    std::fs::write(&path, bytes).unwrap();
    assert_eq!(run("third.obj", &[]), first);
    assert!(std::fs::metadata(&path).unwrap().len() > half as u64);
    // Other parameters: another precomputation, saved beside.
    run("fourth.obj", &["--ddm-cap", "8"]);
    assert_eq!(std::fs::read_dir(cache.join("ddm")).unwrap().count(), 2);
}

#[test]
fn a_small_corrective_is_seen_when_the_colour_range_is_set_or_scaled_to_what_is_shown() {
    use skinscope::debug::colors::{ColorView, HeatRange, heat, vertex_colors_in};
    use skinscope::pose::{CharacterPose, MorphOverride, PoseRequest};
    let c = skinscope::builtin::character().unwrap();
    let mesh = c.instances[0].mesh;
    // The mannequin's first morph target at full weight: a small corrective on a 1.8 m body.
    let request = PoseRequest::default().with_morphs(vec![MorphOverride {
        mesh,
        target: 0,
        weight: 1.0,
    }]);
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &request).unwrap();
    let view = ColorView::MorphDisplacement;
    let colours = |range| vertex_colors_in(&c, view, &pose, None, None, range);
    let (largest, size) =
        skinscope::debug::colors::displacement_extent(&c, view, &pose, None).unwrap();
    assert!(
        largest > 0.0 && largest < 0.05 * size,
        "{largest} of {size}"
    );
    // The hottest colour a colouring uses: the heat scale's position of its hottest vertex.
    let hottest = |colours: &Vec<Vec<Vec<glam::Vec4>>>| {
        let steps: Vec<glam::Vec4> = (0..=1000).map(|k| heat(k as f32 / 1000.0)).collect();
        (colours.iter().flatten().flatten())
            .map(|c| {
                let nearest = (0..steps.len())
                    .min_by(|&a, &b| steps[a].distance(*c).total_cmp(&steps[b].distance(*c)));
                nearest.unwrap_or(0) as f32 / 1000.0
            })
            .fold(0.0f32, f32::max)
    };
    // At a tenth of the size the corrective stays cool; scaled to the largest shown, or with red
    // set at its own size, its largest vertex is full red.
    let of_size = hottest(&colours(HeatRange::OfSize));
    assert!(of_size < 0.5, "{of_size}");
    assert_eq!(hottest(&colours(HeatRange::Largest)), 1.0);
    assert_eq!(hottest(&colours(HeatRange::Distance(largest))), 1.0);
    // The command line takes it, says it in the legend, and refuses it where nothing moves.
    let dir = temp_dir("in-use-colour-range");
    let out = dir.join("morph.png");
    let target = format!("{mesh}:0=1");
    let (code, stdout, err) = skinscope(&[
        "render",
        "--size",
        "64x64",
        "--morph",
        &target,
        "--color-by",
        "morph-displacement",
        "--color-range",
        "0.005",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("red at 0.0050 (as set)"), "{stdout}");
    refused(
        &[
            "render",
            "--color-range",
            "largest",
            "--out",
            out.to_str().unwrap(),
        ],
        "--color-range sets where a displacement view's heat scale turns red",
    );
}

#[test]
fn motion_matching_keeps_the_fox_on_a_path_at_its_own_speeds() {
    let dir = temp_dir("in-use-fox-path");
    let fox = common::shared("Fox/Fox.glb");
    let fox = fox.to_str().unwrap();
    let c = skinscope::import::load(std::path::Path::new(fox)).unwrap();
    let height = skinscope::pose::character_height(&c);
    let run = |path: &str| {
        let file = dir.join("path.json");
        std::fs::write(&file, path).unwrap();
        let (code, out, err) = skinscope(&[
            "palette",
            fox,
            "--motion-matching",
            "--path",
            file.to_str().unwrap(),
            "--simulate",
            "10",
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        common::node_at(&json, "root")
    };
    // 60 units a second along +Z for 4 s, then along +X for 4 s, then a stop: the goal ends at
    // (240, 0, 240). The character is kept within Holden's clamp of it (it ended 264 units off).
    let end = run(
        r#"{"keys": [{"t": 0, "velocity": [0, 0, 60]}, {"t": 4, "velocity": [60, 0, 0]}, {"t": 8, "velocity": [0, 0, 0]}]}"#,
    );
    let off = end.with_y(0.0).distance(glam::Vec3::new(240.0, 0.0, 240.0));
    assert!(
        off < 0.1 * height,
        "{off} units from the goal ({height} tall)"
    );
    // The Fox's own walk (110 units a second) is a speed a path may ask for: the cap is in
    // heights a second, not a number of units.
    let end =
        run(r#"{"keys": [{"t": 0, "velocity": [0, 0, 110]}, {"t": 5, "velocity": [0, 0, 0]}]}"#);
    let off = end.with_y(0.0).distance(glam::Vec3::new(0.0, 0.0, 550.0));
    assert!(
        off < 0.15 * height,
        "{end}: {off} units off ({height} tall)"
    );
}

#[test]
fn a_travelling_render_draws_the_grid_under_the_character_and_its_trail() {
    // Driven for 8 s the mannequin walks about 3.8 units along +Z: the grid is laid under it
    // (it stayed behind at the origin), and its trail is drawn, as the window draws them.
    let dir = temp_dir("in-use-travel");
    let out = dir.join("far.png");
    let (code, _, err) = skinscope(&[
        "render",
        "--clip",
        "walk",
        "--root-motion",
        "driven",
        "--time",
        "8",
        "--size",
        "256x256",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let image = image::open(&out).unwrap().to_rgb8();
    let (w, h) = image.dimensions();
    // Grid lines (light grey, unsaturated) in the bottom quarter, below the character's feet.
    let grid = (h * 3 / 4..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let p = image.get_pixel(x, y).0;
            let (lo, hi) = (p.iter().min().unwrap(), p.iter().max().unwrap());
            *lo > 140 && hi - lo < 25
        })
        .count();
    // The trail: bright green.
    let trail = image
        .pixels()
        .filter(|p| {
            let [r, g, b] = p.0;
            g > 180 && g as i32 - r as i32 > 50 && g as i32 - b as i32 > 20
        })
        .count();
    assert!(grid > 200, "{grid} grid pixels under the character");
    assert!(trail > 20, "{trail} trail pixels");
}

#[test]
fn a_partial_retarget_says_what_it_matched() {
    // The built-in walk as a BVH with the forearms' twist joints renamed past matching (no
    // name, convention or body part reads them): they keep their own motion, and the user is
    // told which.
    let c = skinscope::builtin::character().unwrap();
    let walk = c.clips.iter().find(|k| k.clip.name() == "walk").unwrap();
    let dir = temp_dir("in-use-partial-retarget");
    let take = dir.join("renamed.bvh");
    let text = common::bvh_of(&c, &walk.clip)
        .replace("forearm_twist_l", "zz_blob_one")
        .replace("forearm_twist_r", "zz_blob_two");
    std::fs::write(&take, text).unwrap();
    let take = take.to_str().unwrap();
    // Added to a pose: a line on stderr naming the joints left out.
    let (code, _, err) = skinscope(&["palette", "--clips-from", take, "--clip", "renamed"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("renamed.bvh: "), "{err}");
    assert!(
        err.contains(
            "joints matched; not matched (they keep their own motion): forearm_twist_l, forearm_twist_r"
        ),
        "{err}"
    );
    // inspect --clips-from: every pair, the unmatched and the unused, in text and JSON.
    let (code, out, err) = skinscope(&["inspect", "--clips-from", take]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  pelvis <- pelvis"), "{out}");
    assert!(
        out.contains("not matched: forearm_twist_l, forearm_twist_r"),
        "{out}"
    );
    assert!(
        out.contains("source joints unused: zz_blob_one, zz_blob_two"),
        "{out}"
    );
    let (code, out, err) = skinscope(&["inspect", "--clips-from", take, "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let section = &json["retarget"][0];
    assert_eq!(
        section["unmatched"],
        serde_json::json!(["forearm_twist_l", "forearm_twist_r"])
    );
    assert!(
        section["matched"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!(["pelvis", "pelvis"]))
    );
    // A full match is quiet.
    let full = common::walk_bvh(&c, "in-use-full-retarget");
    let (code, _, err) = skinscope(&["palette", "--clips-from", full.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("joints matched"), "{err}");
}
