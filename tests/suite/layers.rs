//! Pose layers, blend spaces and transitions: hand-worked numbers for the additive
//! rule, the mask, the blend-space weights and the inertialization decay; the built-in
//! character's walk under a waving upper body checked joint by joint against separately posed
//! clips; the command line's options against the library.

use crate::common;

use std::sync::Arc;

use common::skinscope;
use glam::{Quat, Vec3};
use skinscope::anim::{
    BlendSpace1d, Inertialization, JointMask, LocalPose, SwitchPoses, Transform,
    additive_transform, apply_additive, decay, ease,
};
use skinscope::builtin;
use skinscope::character::Character;
use skinscope::pose::{
    CharacterPose, ClipTime, Inertial, LayerBlend, PoseLayer, PoseRequest, Transition,
    TransitionKind,
};

fn mannequin() -> Character {
    builtin::character().unwrap()
}

fn clip(c: &Character, name: &str) -> usize {
    c.clips.iter().position(|k| k.clip.name() == name).unwrap()
}

fn joint(c: &Character, name: &str) -> usize {
    c.skeleton.find(name).unwrap()
}

fn same_rotation(a: Quat, b: Quat, tolerance: f32) -> bool {
    a.dot(b).abs() > 1.0 - tolerance
}

#[test]
fn additive_rotation_is_rest_times_reference_inverse_times_key() {
    // Hand-worked: rest r = 30 deg about Y, reference f = 10 deg about X, key a = 50 deg about
    // X. f⁻¹ a = 40 deg about X, so the result at weight 1 is r * (40 deg about X), at weight
    // 0.5 r * (20 deg about X), at weight 0 r itself.
    let r = Transform {
        translation: Vec3::new(0.0, 1.0, 0.0),
        rotation: Quat::from_rotation_y(30f32.to_radians()),
        scale: Vec3::ONE,
    };
    let f = Transform {
        translation: Vec3::new(0.0, 0.5, 0.0),
        rotation: Quat::from_rotation_x(10f32.to_radians()),
        scale: Vec3::splat(2.0),
    };
    let a = Transform {
        translation: Vec3::new(0.25, 0.5, 0.0),
        rotation: Quat::from_rotation_x(50f32.to_radians()),
        scale: Vec3::splat(3.0),
    };
    let one = additive_transform(&r, &f, &a, 1.0);
    let expected = r.rotation * Quat::from_rotation_x(40f32.to_radians());
    assert!(same_rotation(one.rotation, expected, 1e-7), "{one:?}");
    assert!((one.translation - Vec3::new(0.25, 1.0, 0.0)).length() < 1e-6);
    // Scale: r_s * a_s / f_s = 1 * 3 / 2.
    assert!((one.scale - Vec3::splat(1.5)).length() < 1e-6);
    let half = additive_transform(&r, &f, &a, 0.5);
    let expected = r.rotation * Quat::from_rotation_x(20f32.to_radians());
    assert!(same_rotation(half.rotation, expected, 1e-7));
    assert!((half.translation - Vec3::new(0.125, 1.0, 0.0)).length() < 1e-6);
    assert!((half.scale - Vec3::splat(1.25)).length() < 1e-6);
    // Weight 0: the identity delta, the base unchanged.
    let zero = additive_transform(&r, &f, &a, 0.0);
    assert!(same_rotation(zero.rotation, r.rotation, 1e-7));
    assert_eq!(zero.translation, r.translation);
    assert_eq!(zero.scale, r.scale);
    // The sign rule: -a and -f are the same rotations; the delta is taken on the shorter arc,
    // so half the weight is still 20 degrees (not 200).
    let flipped_a = Transform {
        rotation: -a.rotation,
        ..a
    };
    let flipped = additive_transform(&r, &f, &flipped_a, 0.5);
    assert!(same_rotation(flipped.rotation, half.rotation, 1e-7));
    let flipped_f = Transform {
        rotation: -f.rotation,
        ..f
    };
    let flipped = additive_transform(&r, &flipped_f, &a, 0.5);
    assert!(same_rotation(flipped.rotation, half.rotation, 1e-7));
}

#[test]
fn an_additive_clip_over_its_own_first_frame_adds_nothing_there() {
    let c = mannequin();
    let (walk, idle) = (clip(&c, "walk"), clip(&c, "idle"));
    let base = PoseRequest::clip(walk, 0.3);
    let additive = |time: f32, weight: f32| PoseLayer {
        clip: ClipTime {
            clip: idle,
            time_secs: time,
        },
        weight,
        mask: None,
        blend: LayerBlend::Additive {
            reference: Some(ClipTime {
                clip: idle,
                time_secs: 0.0,
            }),
        },
        fading_out: None,
    };
    let mut plain = CharacterPose::new(&c);
    plain.evaluate(&c, &base).unwrap();
    let mut layered = CharacterPose::new(&c);
    let mut request = base.clone();
    request.layers.push(additive(0.0, 1.0));
    layered.evaluate(&c, &request).unwrap();
    for (a, b) in plain
        .local()
        .as_slice()
        .iter()
        .zip(layered.local().as_slice())
    {
        assert!(same_rotation(a.rotation, b.rotation, 1e-7));
        assert!((a.translation - b.translation).length() < 1e-6);
    }
    // At another time, each joint gets exactly the clip's difference from its first frame.
    request.layers[0] = additive(0.6, 1.0);
    layered.evaluate(&c, &request).unwrap();
    let mut idle_now = CharacterPose::new(&c);
    idle_now
        .evaluate(&c, &PoseRequest::clip(idle, 0.6))
        .unwrap();
    let mut idle_first = CharacterPose::new(&c);
    idle_first
        .evaluate(&c, &PoseRequest::clip(idle, 0.0))
        .unwrap();
    let spine = joint(&c, "spine_02");
    let (r, f, a) = (
        plain.local().as_slice()[spine].rotation,
        idle_first.local().as_slice()[spine].rotation,
        idle_now.local().as_slice()[spine].rotation,
    );
    let got = layered.local().as_slice()[spine].rotation;
    assert!(same_rotation(got, r * (f.conjugate() * a), 1e-6));
    assert!(
        !same_rotation(got, r, 1e-7),
        "the layer must move the spine"
    );
    // The same through apply_additive on bare poses.
    let mut pose = plain.local().clone();
    apply_additive(&mut pose, idle_now.local(), idle_first.local(), None, 1.0).unwrap();
    assert!(same_rotation(pose.as_slice()[spine].rotation, got, 1e-7));
}

#[test]
fn a_mask_covers_its_roots_subtrees_with_their_weights() {
    let c = mannequin();
    let (spine, clavicle, hand, thigh) = (
        joint(&c, "spine_03"),
        joint(&c, "clavicle_r"),
        joint(&c, "hand_r"),
        joint(&c, "thigh_l"),
    );
    let mask = JointMask::from_roots(&c.skeleton, &[(spine, 0.5), (clavicle, 1.0)]);
    let w = mask.weights();
    assert_eq!(w[spine], 0.5);
    assert_eq!(w[joint(&c, "head")], 0.5);
    assert_eq!(w[joint(&c, "hand_l")], 0.5);
    assert_eq!(w[clavicle], 1.0);
    assert_eq!(w[hand], 1.0);
    assert_eq!(w[thigh], 0.0);
    assert_eq!(w[joint(&c, "pelvis")], 0.0);
}

#[test]
fn walk_legs_under_a_waving_upper_body() {
    // --layer wave:clavicle_l,clavicle_r:1 over walk: outside the mask the palette is walk's
    // exactly; inside, the local transforms are wave's exactly, and the model transforms are
    // the base's spine composed with wave's arm chain.
    let c = mannequin();
    let (walk, wave) = (clip(&c, "walk"), clip(&c, "wave"));
    let t = 0.7;
    let (_, out, err) = skinscope(&[
        "palette",
        "--clip",
        "walk",
        "--time",
        "0.7",
        "--layer",
        "wave:clavicle_l,clavicle_r:1",
        "--json",
    ]);
    assert!(err.is_empty() || !err.contains("error"), "{err}");
    let layered: serde_json::Value = serde_json::from_str(&out).unwrap();
    let (_, out, _) = skinscope(&["palette", "--clip", "walk", "--time", "0.7", "--json"]);
    let base: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mask = JointMask::from_roots(
        &c.skeleton,
        &[
            (joint(&c, "clavicle_l"), 1.0),
            (joint(&c, "clavicle_r"), 1.0),
        ],
    );
    let mut wave_pose = CharacterPose::new(&c);
    wave_pose.evaluate(&c, &PoseRequest::clip(wave, t)).unwrap();
    let mut walk_pose = CharacterPose::new(&c);
    walk_pose.evaluate(&c, &PoseRequest::clip(walk, t)).unwrap();
    let joints_of = |v: &serde_json::Value| v["instances"][0]["joints"].as_array().unwrap().clone();
    let (layered_joints, base_joints) = (joints_of(&layered), joints_of(&base));
    let (mut inside, mut outside) = (0, 0);
    for (l, b) in layered_joints.iter().zip(&base_joints) {
        let j = joint(&c, l["name"].as_str().unwrap());
        if mask.weights()[j] == 0.0 {
            assert_eq!(
                l["matrix"], b["matrix"],
                "{} moved outside the mask",
                l["name"]
            );
            outside += 1;
            continue;
        }
        inside += 1;
        // Independent composition: the base's model transform down to the first masked
        // ancestor's parent, then wave's local transforms.
        let mut chain = vec![j];
        while let Some(p) = c.skeleton.parent(*chain.last().unwrap()) {
            if mask.weights()[p] == 0.0 {
                break;
            }
            chain.push(p);
        }
        let top_parent = c.skeleton.parent(*chain.last().unwrap()).unwrap();
        let mut model = walk_pose.model.as_slice()[top_parent];
        for &k in chain.iter().rev() {
            model *= wave_pose.local().as_slice()[k].to_affine();
        }
        let got: Vec<f32> = l["world_from_joint"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap() as f32)
            .collect();
        let want = glam::Mat4::from(model).to_cols_array();
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-5, "{}: {got:?} vs {want:?}", l["name"]);
        }
    }
    // Inside: per arm the clavicle, upper arm, forearm, its twist joint and the hand.
    assert_eq!((inside, outside), (10, 14));
    // In the library: the masked joints' local transforms are wave's bit for bit.
    let mut request = PoseRequest::clip(walk, t);
    request.layers.push(PoseLayer {
        clip: ClipTime {
            clip: wave,
            time_secs: t,
        },
        weight: 1.0,
        mask: Some(Arc::new(mask.clone())),
        blend: LayerBlend::Override,
        fading_out: None,
    });
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &request).unwrap();
    for j in 0..c.skeleton.joint_count() {
        let want = if mask.weights()[j] > 0.0 {
            wave_pose.local().as_slice()[j]
        } else {
            walk_pose.local().as_slice()[j]
        };
        assert_eq!(pose.local().as_slice()[j], want, "joint {j}");
    }
    // At weight 0.5 the masked joints sit halfway (slerp) and the rest do not move.
    request.layers[0].weight = 0.5;
    pose.evaluate(&c, &request).unwrap();
    let arm = joint(&c, "upperarm_r");
    let half = walk_pose.local().as_slice()[arm]
        .rotation
        .slerp(wave_pose.local().as_slice()[arm].rotation, 0.5);
    assert!(same_rotation(
        pose.local().as_slice()[arm].rotation,
        half,
        1e-6
    ));
    let leg = joint(&c, "thigh_l");
    assert_eq!(
        pose.local().as_slice()[leg],
        walk_pose.local().as_slice()[leg]
    );
}

#[test]
fn blend_space_weights_interpolate_between_neighbours() {
    // idle at 0 m/s, walk at 1.4, run at 3.5 (clip indices 0, 1, 2).
    let space = BlendSpace1d::new(vec![(2, 3.5), (0, 0.0), (1, 1.4)]).unwrap();
    let p = space.at(0.7);
    assert_eq!((p.a, p.b), (0, 1));
    assert!((p.weight - 0.5).abs() < 1e-6);
    let p = space.at(2.45);
    assert_eq!((p.a, p.b), (1, 2));
    assert!((p.weight - 0.5).abs() < 1e-6);
    let p = space.at(1.4);
    assert_eq!((p.a, p.b, p.weight), (1, 2, 0.0));
    // Clamped at the ends.
    assert_eq!((space.at(-1.0).a, space.at(-1.0).weight), (0, 0.0));
    assert_eq!((space.at(9.0).a, space.at(9.0).b), (2, 2));
}

#[test]
fn a_blend_space_plays_its_cycle_at_the_blended_length() {
    // idle lasts 2.5 s and walk 1 s: halfway between them, one shared cycle lasts 1.75 s, so
    // 0.35 s of real time moves the phase by 0.2 and both clips sit at 20 % of their cycles.
    let c = mannequin();
    let (idle, walk) = (clip(&c, "idle"), clip(&c, "walk"));
    let space = BlendSpace1d::new(vec![(idle, 0.0), (walk, 1.4)]).unwrap();
    let mut motion = skinscope::graph::Motion::space(space, 0.7, 1.0);
    let mut steps = Vec::new();
    motion.advance(&c, 0.35, 0.7, &mut steps);
    let (a, blend) = motion.source(&c);
    assert_eq!(a.clip, idle);
    assert!((a.time_secs - 0.5).abs() < 1e-5, "{a:?}");
    let blend = blend.unwrap();
    assert_eq!(blend.b, walk);
    assert!((blend.weight - 0.5).abs() < 1e-6);
    // The walk's step this frame: 0.2 of its 1 s cycle.
    let walk_step = steps.iter().find(|s| s.clip == walk).unwrap();
    assert!((walk_step.step.to_secs - 0.2).abs() < 1e-5);
}

#[test]
fn easing_halves_the_gap_every_half_life_whatever_the_steps() {
    assert_eq!(decay(0.3, 0.3), 0.5);
    assert_eq!(decay(1.2, 0.3), 1.0 / 16.0);
    let once = ease(0.0, 1.0, 0.3, 0.3);
    assert!((once - 0.5).abs() < 1e-6);
    let mut stepped = 0.0;
    for _ in 0..18 {
        stepped = ease(stepped, 1.0, 0.3 / 18.0, 0.3);
    }
    assert!((stepped - 0.5).abs() < 1e-5, "{stepped}");
}

/// A transform moved by a known offset: +0.2 along X and 60 degrees about Z.
fn offset_pose(pose: &LocalPose) -> LocalPose {
    let mut out = pose.clone();
    for t in out.as_mut_slice() {
        t.translation += Vec3::new(0.2, 0.0, 0.0);
        t.rotation = Quat::from_rotation_z(60f32.to_radians()) * t.rotation;
    }
    out
}

#[test]
fn an_inertialized_offset_halves_every_half_life() {
    // Static poses (no velocity): the offset recorded is +0.2 X and 60 degrees; after one
    // half-life 0.1 and 30 degrees are left, after four 0.0125 and 3.75 degrees.
    let c = mannequin();
    let incoming = LocalPose::rest(&c.skeleton);
    let outgoing = offset_pose(&incoming);
    let mut inertial = Inertialization::new(c.skeleton.joint_count());
    let poses = SwitchPoses {
        outgoing: &outgoing,
        outgoing_before: &outgoing,
        incoming: &incoming,
        incoming_after: &incoming,
        dt_secs: 1.0 / 60.0,
    };
    inertial.record(poses, 0.25).unwrap();
    let pelvis = joint(&c, "pelvis");
    for (elapsed, fraction) in [(0.0, 1.0), (0.25, 0.5), (0.5, 0.25), (1.0, 1.0 / 16.0)] {
        let mut pose = incoming.clone();
        inertial.apply(&mut pose, elapsed).unwrap();
        let t = &pose.as_slice()[pelvis];
        let moved = t.translation - incoming.as_slice()[pelvis].translation;
        assert!(
            (moved.x - 0.2 * fraction).abs() < 1e-6,
            "{elapsed}: {moved}"
        );
        let (_, angle) =
            (t.rotation * incoming.as_slice()[pelvis].rotation.conjugate()).to_axis_angle();
        assert!(
            (angle.to_degrees() - 60.0 * fraction).abs() < 1e-3,
            "{elapsed}: {}",
            angle.to_degrees()
        );
    }
}

#[test]
fn inertialization_runs_on_real_time_at_any_playback_speed() {
    // The same switch at 0.5x and 2x playback: the incoming clip is at different times, but the
    // offset left on top of it after one and four half-lives of real time is the same: a half
    // and a sixteenth of the pelvis's offset at the switch.
    let c = mannequin();
    let (walk, idle) = (clip(&c, "walk"), clip(&c, "idle"));
    let pelvis = joint(&c, "pelvis");
    let half_life = 0.2;
    let offset_at = |speed: f32, elapsed: f32| -> Vec3 {
        let incoming_time = elapsed * speed;
        let mut request = PoseRequest::clip(walk, incoming_time);
        request.transition = Some(Transition {
            from: ClipTime {
                clip: idle,
                time_secs: 0.625,
            },
            from_blend: None,
            kind: TransitionKind::Inertialize(Inertial {
                to: ClipTime {
                    clip: walk,
                    time_secs: 0.0,
                },
                to_blend: None,
                // Both sides held still at the switch: no velocity offset.
                from_rate: 0.0,
                to_rate: 0.0,
                half_life_secs: half_life,
                elapsed_secs: elapsed,
                carried_secs: None,
            }),
        });
        let mut pose = CharacterPose::new(&c);
        pose.evaluate(&c, &request).unwrap();
        let mut plain = CharacterPose::new(&c);
        plain
            .evaluate(&c, &PoseRequest::clip(walk, incoming_time))
            .unwrap();
        pose.local().as_slice()[pelvis].translation - plain.local().as_slice()[pelvis].translation
    };
    let at_switch = offset_at(1.0, 0.0);
    // idle sways the pelvis 0.035 to the side at a quarter of its 2.5 s cycle; walk starts it
    // at rest: the offset is the sway.
    let mut idle_pose = CharacterPose::new(&c);
    idle_pose
        .evaluate(&c, &PoseRequest::clip(idle, 0.625))
        .unwrap();
    let mut walk_start = CharacterPose::new(&c);
    walk_start
        .evaluate(&c, &PoseRequest::clip(walk, 0.0))
        .unwrap();
    let expected = idle_pose.local().as_slice()[pelvis].translation
        - walk_start.local().as_slice()[pelvis].translation;
    assert!((at_switch - expected).length() < 1e-6);
    assert!((expected.x - 0.035).abs() < 1e-4, "{expected}");
    for speed in [0.5, 2.0] {
        let one = offset_at(speed, half_life);
        let four = offset_at(speed, 4.0 * half_life);
        assert!((one - expected * 0.5).length() < 1e-6, "{speed}: {one}");
        assert!((four - expected / 16.0).length() < 1e-6, "{speed}: {four}");
    }
}

#[test]
fn an_inertialized_switch_starts_on_the_outgoing_pose() {
    // At the switch the pose is the outgoing one (velocities recorded and all), so nothing pops.
    let c = mannequin();
    let (walk, idle) = (clip(&c, "walk"), clip(&c, "idle"));
    let mut request = PoseRequest::clip(idle, 0.0);
    request.transition = Some(Transition {
        from: ClipTime {
            clip: walk,
            time_secs: 0.4,
        },
        from_blend: None,
        kind: TransitionKind::Inertialize(Inertial {
            to: ClipTime {
                clip: idle,
                time_secs: 0.0,
            },
            to_blend: None,
            from_rate: 1.0,
            to_rate: 1.0,
            half_life_secs: 0.1,
            elapsed_secs: 0.0,
            carried_secs: None,
        }),
    });
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &request).unwrap();
    let mut walking = CharacterPose::new(&c);
    walking.evaluate(&c, &PoseRequest::clip(walk, 0.4)).unwrap();
    for (a, b) in pose
        .local()
        .as_slice()
        .iter()
        .zip(walking.local().as_slice())
    {
        assert!((a.translation - b.translation).length() < 1e-5);
        assert!(same_rotation(a.rotation, b.rotation, 1e-6));
    }
}

#[test]
fn the_transition_option_matches_the_library() {
    // --transition wave@0.2:0.3 at --time 0.35: wave has played 0.15 s and weighs 0.5 against
    // walk at 0.35 s.
    let c = mannequin();
    let (walk, wave) = (clip(&c, "walk"), clip(&c, "wave"));
    let palette = |args: &[&str]| -> serde_json::Value {
        let mut all = vec!["palette", "--json", "--clip", "walk"];
        all.extend_from_slice(args);
        let (code, out, err) = skinscope(&all);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    let json = palette(&["--time", "0.35", "--transition", "wave@0.2:0.3"]);
    // The same arithmetic as the option's: time - start, and that over the duration.
    let elapsed = 0.35f32 - 0.2f32;
    let mut request = PoseRequest::clip(wave, elapsed);
    request.transition = Some(Transition::crossfade(
        ClipTime {
            clip: walk,
            time_secs: 0.35,
        },
        elapsed / 0.3,
    ));
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &request).unwrap();
    let palette_of = common::palette_floats;
    let want: Vec<f32> = pose
        .instance_palette(0)
        .unwrap()
        .iter()
        .flat_map(|m| m.to_cols_array())
        .collect();
    assert_eq!(palette_of(&json), want);
    // Before the switch: walk alone. After the fade: wave alone.
    assert_eq!(
        palette_of(&palette(&["--time", "0.1", "--transition", "wave@0.2:0.3"])),
        palette_of(&palette(&["--time", "0.1"]))
    );
    let after = palette(&["--time", "0.7", "--transition", "wave@0.2:0.3"]);
    let (_, wave_alone, _) = skinscope(&["palette", "--json", "--clip", "wave", "--time", "0.5"]);
    let wave_alone: serde_json::Value = serde_json::from_str(&wave_alone).unwrap();
    assert_eq!(palette_of(&after), palette_of(&wave_alone));
    // Inertialized: at the switch the outgoing pose; eight half-lives on, within 1/256 of the
    // offset of the incoming clip alone.
    let at_switch = palette(&["--time", "0.2", "--transition", "wave@0.2:0.1:inertialize"]);
    let walk_then = palette(&["--time", "0.2"]);
    for (a, b) in palette_of(&at_switch).iter().zip(palette_of(&walk_then)) {
        assert!((a - b).abs() < 1e-4, "{a} vs {b}");
    }
}

#[test]
fn switching_a_layer_s_clip_crossfades_over_its_half_life() {
    // A layer playing idle switches to wave: the old clip weighs 1 at the switch, a half after
    // one half-life, and the layer's pose is the crossfade of the two clips at that weight.
    use skinscope::graph::LayerPlayer;
    let c = mannequin();
    let (idle, wave, walk) = (clip(&c, "idle"), clip(&c, "wave"), clip(&c, "walk"));
    let mut layer = LayerPlayer::new(&c, idle, None, LayerBlend::Override, 0.2);
    layer.target = 1.0;
    layer.weight = 1.0;
    let mut steps = Vec::new();
    layer.advance(0.5, 1.0, false, &mut steps);
    layer.switch_clip(&c, wave);
    assert_eq!(layer.fading(), Some((idle, 1.0)));
    layer.advance(0.2, 1.0, false, &mut steps);
    let (old, w) = layer.fading().unwrap();
    assert_eq!(old, idle);
    assert!((w - 0.5).abs() < 1e-6);
    let pose_layer = layer.pose_layer().unwrap();
    assert_eq!(
        pose_layer.clip,
        ClipTime {
            clip: wave,
            time_secs: 0.2
        }
    );
    match pose_layer.blend {
        LayerBlend::Override => {
            let (at, weight) = pose_layer.fading_out.unwrap();
            assert_eq!(at.clip, idle);
            assert!((at.time_secs - 0.7).abs() < 1e-6 && (weight - 0.5).abs() < 1e-6);
        }
        other => panic!("{other:?}"),
    }
    // Over walk, every joint is the nlerp of wave at 0.2 s and idle at 0.7 s.
    let mut request = PoseRequest::clip(walk, 0.3);
    request.layers.push(pose_layer);
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &request).unwrap();
    let sample = |clip: usize, t: f32| {
        let mut p = CharacterPose::new(&c);
        p.evaluate(&c, &PoseRequest::clip(clip, t)).unwrap();
        p.local().clone()
    };
    let (wave_pose, idle_pose) = (sample(wave, 0.2), sample(idle, 0.7));
    let arm = joint(&c, "upperarm_r");
    let (a, b) = (
        wave_pose.as_slice()[arm].rotation,
        idle_pose.as_slice()[arm].rotation,
    );
    let b = if a.dot(b) < 0.0 { -b } else { b };
    let halfway = (a * 0.5 + b * 0.5).normalize();
    assert!(same_rotation(
        pose.local().as_slice()[arm].rotation,
        halfway,
        1e-6
    ));
    // Eased out entirely after enough half-lives: the fade is dropped.
    layer.advance(5.0, 1.0, false, &mut steps);
    assert_eq!(layer.fading(), None);
}
