//! Limbs retargeted as IK chains: a take onto a character whose legs are longer or shorter keeps
//! its planted feet planted (the foot-slide figure `check --foot-slide` reports), where a plain
//! rotation retarget slides them.

use skinscope::anim::{JointMap, Retarget, RetargetSettings, Skeleton, Transform};
use skinscope::character::Character;
use skinscope::pose::{
    FootSlide, RootMotion, RootMotionMode, contact_windows, find_legs, foot_slide_during,
};

/// The built-in character with its legs `k` times as long (thigh and shin bones), the pelvis
/// raised to keep the feet on the ground.
fn long_legged(c: &Character, k: f32) -> Character {
    let s = &c.skeleton;
    let rest_model = crate::common::rest_model(s);
    let y = |n: &str| rest_model.as_slice()[s.find(n).unwrap()].translation.y;
    let drop = y("thigh_l") - y("foot_l");
    let mut rest: Vec<Transform> = s.rest().to_vec();
    for name in ["shin_l", "foot_l", "shin_r", "foot_r"] {
        rest[s.find(name).unwrap()].translation *= k;
    }
    rest[s.find("pelvis").unwrap()].translation.y += (k - 1.0) * drop;
    let parents = (0..s.joint_count()).map(|j| s.parent(j)).collect();
    let mut out = c.clone();
    out.skeleton = Skeleton::new(s.names().to_vec(), parents, rest).unwrap();
    out
}

/// `clip` of `source` retargeted onto `target` (with `settings`), at 60 Hz, as `target`'s only
/// clip.
fn with_take(
    source: &Character,
    clip: usize,
    target: &Character,
    settings: RetargetSettings,
) -> Character {
    let map = JointMap::auto(&source.skeleton, &target.skeleton);
    let retarget = Retarget::with(&source.skeleton, &target.skeleton, map.indices(), settings);
    let take = &source.clips[clip].clip;
    let d = take.duration_secs();
    let times: Vec<f32> = (0..=(d * 60.0).round() as usize)
        .map(|k| (k as f32 / 60.0).min(d))
        .collect();
    let moved = retarget
        .clip(
            &source.skeleton,
            take,
            &target.skeleton,
            &times,
            take.name(),
        )
        .unwrap();
    let mut out = target.clone();
    out.clips = vec![skinscope::character::ClipData {
        index: 0,
        clip: moved,
        morph_tracks: Vec::new(),
        channels: Vec::new(),
        compressed: None,
    }];
    out
}

/// Root motion applied, as `check --foot-slide` measures it.
fn applied(c: &Character) -> Option<RootMotion> {
    skinscope::anim::default_root_joint(&c.skeleton, c.clips.iter().map(|k| &k.clip)).map(|joint| {
        RootMotion {
            joint,
            mode: RootMotionMode::Applied,
        }
    })
}

/// The mean planted slide over both feet, units per second, over `windows` (the source's
/// contact windows: the two clips share their timing).
fn slide(c: &Character, clip: usize, windows: &[Vec<(f32, f32)>]) -> f32 {
    let slides: Vec<FootSlide> = foot_slide_during(c, clip, &find_legs(c), applied(c), windows);
    assert_eq!(slides.len(), 2);
    slides.iter().map(|s| s.mean).sum::<f32>() / 2.0
}

#[test]
fn ik_limbs_keep_planted_feet_on_longer_and_shorter_legs() {
    let source = skinscope::builtin::character().unwrap();
    let legs = find_legs(&source);
    // The built-in clips that travel with planted feet (its `walk` is a treadmill loop: its
    // feet slide as it stands).
    for name in ["walk_slow", "walk_fast", "run", "run_fast", "start", "stop"] {
        let clip = source
            .clips
            .iter()
            .position(|k| k.clip.name() == name)
            .unwrap();
        let windows = contact_windows(&source, clip, &legs);
        let own = slide(&source, clip, &windows);
        for k in [1.3f32, 0.8] {
            let target = long_legged(&source, k);
            let settings = RetargetSettings {
                ik_limbs: true,
                ..Default::default()
            };
            // The target travels at this scale: its slide is compared at the source's.
            let scale = {
                let map = JointMap::auto(&source.skeleton, &target.skeleton);
                Retarget::with(
                    &source.skeleton,
                    &target.skeleton,
                    map.indices(),
                    settings.clone(),
                )
                .travel_scale()
            };
            let plain = slide(
                &with_take(&source, clip, &target, RetargetSettings::default()),
                0,
                &windows,
            );
            let ik = slide(&with_take(&source, clip, &target, settings), 0, &windows);
            println!(
                "{name} onto legs {k}x: planted slide, mean units/s at the source's scale: source {own:.4}, rotations {:.4}, IK limbs {:.4}",
                plain / scale,
                ik / scale
            );
            // Within 10% of the source's own (or a millimetre a second: a still foot's noise).
            let within = (0.1 * own).max(1e-3);
            assert!(
                (ik / scale - own).abs() <= within,
                "{name} {k}x: {} against {own}",
                ik / scale
            );
            // And the plain rotation retarget slides where IK does not.
            assert!(
                plain / scale > own + within,
                "{name} {k}x: rotations {}",
                plain / scale
            );
        }
    }
}

/// The hips' model-space position, `c` playing its clip `clip` at `t`.
fn hips_at(c: &Character, clip: &skinscope::anim::Clip, t: f32) -> glam::Vec3 {
    let s = &c.skeleton;
    let mut local = skinscope::anim::LocalPose::rest(s);
    let mut cursor = skinscope::anim::ClipCursor::new(clip);
    skinscope::anim::sample_clip(s, clip, t, &mut cursor, &mut local).unwrap();
    let mut model = skinscope::anim::ModelPose::new(s);
    skinscope::anim::local_to_model(s, &local, &mut model).unwrap();
    model.as_slice()[s.find("pelvis").unwrap()]
        .translation
        .into()
}

#[test]
fn root_motion_kept_scaled_or_removed_rotations_only_and_the_motion_s_scale() {
    use skinscope::anim::RootTravel;
    let source = skinscope::builtin::character().unwrap();
    let clip = source
        .clips
        .iter()
        .position(|k| k.clip.name() == "walk_fast")
        .unwrap();
    let take = &source.clips[clip].clip;
    let end = take.duration_secs();
    // The source's own travel over the clip, and its hips' bob.
    let travel = hips_at(&source, take, end) - hips_at(&source, take, 0.0);
    assert!(travel.with_y(0.0).length() > 0.5, "{travel}");
    let moved = |settings: RetargetSettings| {
        let c = with_take(&source, clip, &source, settings);
        let a = hips_at(&c, &c.clips[0].clip, 0.0);
        let b = hips_at(&c, &c.clips[0].clip, end);
        let mid = hips_at(&c, &c.clips[0].clip, end * 0.3);
        (b - a, mid)
    };
    let (kept, kept_mid) = moved(RetargetSettings::default());
    assert!((kept - travel).length() < 1e-4, "{kept} against {travel}");
    // Removed: no travel across the ground; the height and its bob are kept.
    let (removed, removed_mid) = moved(RetargetSettings {
        root_motion: RootTravel::Remove,
        ..Default::default()
    });
    assert!(removed.with_y(0.0).length() < 1e-4, "{removed}");
    assert!((removed_mid.y - kept_mid.y).abs() < 1e-5);
    // Scaled by a half across the ground.
    let (half, _) = moved(RetargetSettings {
        root_motion: RootTravel::Scale(0.5),
        ..Default::default()
    });
    assert!(
        (half.with_y(0.0) - kept.with_y(0.0) * 0.5).length() < 1e-4,
        "{half}"
    );
    // The motion's scale: the whole travel, height included, twice.
    let (double, double_mid) = moved(RetargetSettings {
        motion_scale: Some(2.0),
        ..Default::default()
    });
    assert!((double - kept * 2.0).length() < 1e-4, "{double}");
    let pelvis = source.skeleton.find("pelvis").unwrap();
    let rest = glam::Vec3::from(
        crate::common::rest_model(&source.skeleton).as_slice()[pelvis].translation,
    );
    assert!(((double_mid.y - rest.y) - 2.0 * (kept_mid.y - rest.y)).abs() < 1e-4);
    // Rotations only: the hips stay at their rest place.
    let c = with_take(
        &source,
        clip,
        &source,
        RetargetSettings {
            rotation_only: true,
            ..Default::default()
        },
    );
    for t in [0.0, end * 0.3, end] {
        assert!(hips_at(&c, &c.clips[0].clip, t).distance(rest) < 1e-5);
    }
    assert!(
        c.clips[0]
            .clip
            .tracks()
            .iter()
            .all(|t| !matches!(t.channel, skinscope::anim::Channel::Translation(_)))
    );
}
