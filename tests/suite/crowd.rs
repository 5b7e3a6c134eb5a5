//! A crowd: each member's palette is the character posed at its own phase and weight, whatever
//! the number of threads; drawn instanced on the GPU.

use crate::common;

use skinscope::anim::wrap_time;
use skinscope::import;
use skinscope::pose::{CharacterPose, Crowd, PoseRequest};

#[test]
fn members_are_posed_at_their_own_phase_and_weight() {
    let fox = import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let (a, b) = (0, 1);
    let mut crowd = Crowd::new(&fox, 16, (a, b), 3.0);
    let time = 1.37;
    crowd.update(&fox, time);
    let len = crowd.palette_len();
    let (da, db) = (fox.clips[a].duration_secs(), fox.clips[b].duration_secs());
    let mut seen = Vec::new();
    for k in 0..16 {
        // The crowd's documented spread: golden-ratio phases and weights.
        let phase = (k as f32 * 0.618_034).fract();
        let weight = (k as f32 * 0.414_213_57).fract();
        let cycle = da + (db - da) * weight;
        let ratio = wrap_time(time / cycle + phase, 1.0);
        let mut pose = CharacterPose::new(&fox);
        // Clip A at the member's ratio of its cycle, clip B in step (at the same ratio).
        let request = PoseRequest::clip(a, ratio * da).with_blend(b, weight);
        pose.evaluate(&fox, &request).unwrap();
        assert_eq!(
            &crowd.palette[k * len..(k + 1) * len],
            &pose.palette[..],
            "member {k}"
        );
        seen.push(pose.palette[3]);
    }
    // Members really differ from each other.
    assert!(seen.windows(2).all(|w| w[0] != w[1]));
    // One thread gives exactly what the default pool gave.
    let parallel = crowd.palette.clone();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    one.install(|| crowd.update(&fox, time));
    assert_eq!(crowd.palette, parallel);
    // Placed on a 4 x 4 grid, 3 apart.
    let x = |k: usize| crowd.world_from_mesh[k * fox.instances.len()].w_axis.x;
    assert!((x(1) - x(0) - 3.0).abs() < 1e-5 && (x(4) - x(0)).abs() < 1e-5);
}

#[test]
fn a_crowd_renders_instanced_from_one_palette_buffer() {
    let gpu = skinscope::render::gpu::Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let fox = import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let silhouette = |crowd| {
        let request = skinscope::draw::headless::FrameRequest {
            size: (160, 120),
            pose: PoseRequest::clip(0, 0.0),
            crowd,
            options: skinscope::render::renderer::DrawOptions {
                silhouette: true,
                ..Default::default()
            },
            ..Default::default()
        };
        let pixels = skinscope::draw::headless::render_frame(&gpu, &fox, &request).unwrap();
        pixels.chunks_exact(4).filter(|p| p[0] > 127).count()
    };
    let one = silhouette(None);
    let nine = silhouette(Some(9));
    // Nine foxes framed together: each smaller, together covering a different, non-zero area.
    assert!(one > 500 && nine > 300, "one fox {one} px, nine {nine} px");
    assert_ne!(one, nine);
}

#[test]
fn a_new_crowd_size_resizes_buffers_without_uploading_or_compiling_again() {
    use skinscope::render::camera::Camera;
    use skinscope::render::offscreen::{COLOR_FORMAT, Offscreen};
    use skinscope::render::renderer::{DrawOptions, FrameInput, Renderer, View};
    let gpu = skinscope::render::gpu::Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let fox = import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let mut crowd = Crowd::new(&fox, 9, (0, 1), 200.0);
    crowd.update(&fox, 0.4);
    let camera = Camera::look_at(
        glam::Vec3::new(300.0, 500.0, 900.0),
        glam::Vec3::ZERO,
        45.0,
        10.0,
        5000.0,
    );
    let options = DrawOptions::default();
    let draw = |renderer: &mut Renderer| {
        renderer.prepare(
            View::Main,
            &gpu.queue,
            &FrameInput {
                posed: skinscope::draw::extract_crowd(&crowd),
                camera: &camera,
                aspect: 4.0 / 3.0,
                bones: &[],
                options: &options,
            },
        );
        let target = Offscreen::new(&gpu.device, (160, 120));
        skinscope::draw::headless::paint_main(&gpu, renderer, &target, &options);
        target.read_rgba(&gpu.device, &gpu.queue).unwrap()
    };
    let capacity = |copies| skinscope::draw::capacity(&fox, copies);
    // One copy, drawn once (the lazily built pipelines are made now), then resized for nine.
    let mut resized = Renderer::new(&gpu.device, &gpu.queue, &fox, COLOR_FORMAT, capacity(1));
    let one = draw(&mut resized);
    let before = resized.stats();
    resized.resize(&gpu.device, capacity(9));
    assert_eq!(resized.capacity().copies, 9);
    let nine = draw(&mut resized);
    assert_eq!(
        resized.stats(),
        before,
        "a resize uploads or compiles nothing"
    );
    assert_eq!(before.mesh_uploads, 1);
    // The resized renderer draws the nine foxes as one built for nine does, and not as one fox.
    let mut fresh = Renderer::new(&gpu.device, &gpu.queue, &fox, COLOR_FORMAT, capacity(9));
    assert_eq!(nine, draw(&mut fresh));
    assert_ne!(nine, one);
    // Renderers made from one cache (the window's, for each new character) share the pipelines
    // it compiled: the second compiles nothing.
    let with_cache = |copies| {
        Renderer::with_cache(
            &gpu.cache,
            &gpu.device,
            &gpu.queue,
            &fox,
            COLOR_FORMAT,
            capacity(copies),
        )
    };
    let mut first = with_cache(1);
    draw(&mut first);
    let compiled = first.stats().pipelines_built;
    assert!(
        compiled >= 2,
        "the skin pass's pipelines were built too: {compiled}"
    );
    // Before it draws anything, the second already has every family the first compiled (a
    // renderer of its own would have its base set only).
    let mut second = with_cache(9);
    assert_eq!(second.stats().pipelines_built, compiled);
    assert_eq!(draw(&mut second), nine);
    assert_eq!(second.stats().pipelines_built, compiled);
}

/// The built-in mannequin's walk (1 s cycle, events "foot_left" at 0.25 s and "foot_right" at
/// 0.75 s) for a crowd of `count` blending walk with itself.
fn walkers(count: usize) -> (skinscope::character::Character, Crowd) {
    let c = skinscope::builtin::character().unwrap();
    let walk = c
        .clips
        .iter()
        .position(|k| k.clip.name() == "walk")
        .unwrap();
    let crowd = Crowd::new(&c, count, (walk, walk), 2.0);
    (c, crowd)
}

#[test]
fn far_members_are_posed_in_turn_and_held_between() {
    use skinscope::pose::CrowdLod;
    let (c, mut full) = walkers(40);
    let (_, mut far) = walkers(40);
    let len = far.palette_len();
    // Every member beyond the last distance: every 8th frame, in turns staggered by member.
    let lod = CrowdLod {
        distances: [0.5, 1.0, 1.5],
    };
    let eye = glam::Vec3::new(1000.0, 0.0, 0.0);
    let mut held = far.palette.clone();
    for frame in 0..24u64 {
        let t = frame as f32 / 60.0;
        full.update(&c, t);
        far.update_lod(&c, t, eye, lod);
        assert!(far.rates.iter().all(|&r| r == 8));
        let mut posed = 0;
        for k in 0..40 {
            let entries = k * len..(k + 1) * len;
            if frame == 0 || (frame + k as u64).is_multiple_of(8) {
                // Its turn: posed exactly as at full rate.
                assert_eq!(
                    &far.palette[entries.clone()],
                    &full.palette[entries.clone()]
                );
                posed += 1;
            } else {
                // Held from its last turn.
                assert_eq!(&far.palette[entries.clone()], &held[entries.clone()]);
            }
        }
        // The first update poses everyone (nothing to hold yet); then the cost is even: 40
        // members at 1 in 8 is 5 a frame.
        assert_eq!(posed, if frame == 0 { 40 } else { 5 }, "frame {frame}");
        held.clone_from(&far.palette);
    }
    // A crowd of 16 blocks of 64 takes turns by block: 2 whole blocks a frame.
    let (_, mut big) = walkers(1024);
    for frame in 0..4u64 {
        let before = big.palette.clone();
        big.update_lod(&c, frame as f32 / 60.0, eye, lod);
        let len = big.palette_len();
        let changed: Vec<usize> = (0..1024)
            .filter(|k| big.palette[k * len..(k + 1) * len] != before[k * len..(k + 1) * len])
            .collect();
        if frame > 0 {
            let blocks: std::collections::BTreeSet<usize> =
                changed.iter().map(|k| k / 64).collect();
            assert_eq!(changed.len(), 128, "frame {frame}");
            let expected = [(8 - frame as usize) % 8, 16 - frame as usize];
            assert_eq!(
                blocks.into_iter().collect::<Vec<_>>(),
                expected,
                "frame {frame}"
            );
        }
    }
    // Near the eye, the rate falls back to every frame.
    let near = CrowdLod::for_height(1.8);
    assert_eq!(
        (
            near.rate(1.0),
            near.rate(20.0),
            near.rate(40.0),
            near.rate(1e4)
        ),
        (1, 2, 4, 8)
    );
}

#[test]
fn a_big_crowd_s_rates_are_each_member_s_own_where_band_edges_cut_through_its_blocks() {
    use glam::Vec3;
    use skinscope::pose::CrowdLod;
    // 1,024 members: a 32 x 32 grid 2 apart, rows along x at z = (row - 15.5) * 2, in 16 blocks
    // of two rows each. Seen from 200 in front of its centre, a member of row r is 169 + 2r
    // away, plus up to 2.9 for its x: the edges at 175, 190 and 215 cut through rows 2, 10 and
    // 22 (blocks 1, 5 and 11), and the other blocks lie each in one band.
    let (c, mut full) = walkers(1024);
    let (_, mut far) = walkers(1024);
    let eye = Vec3::new(0.0, 0.0, -200.0);
    let lod = CrowdLod {
        distances: [175.0, 190.0, 215.0],
    };
    let expected: Vec<u8> = (far.offsets())
        .map(|offset| lod.rate(eye.distance(offset)))
        .collect();
    let blocks: Vec<&[u8]> = expected.chunks(64).collect();
    let mixed = blocks
        .iter()
        .filter(|b| b.iter().any(|r| *r != b[0]))
        .count();
    let one_band_held = (blocks.iter())
        .filter(|b| b[0] > 1 && b.iter().all(|r| *r == b[0]))
        .count();
    assert_eq!((mixed, one_band_held), (3, 12));
    let len = far.palette_len();
    let mut held = far.palette.clone();
    for frame in 0..9u64 {
        let t = frame as f32 / 60.0;
        full.update(&c, t);
        far.update_lod(&c, t, eye, lod);
        assert_eq!(far.rates, expected, "frame {frame}");
        for (k, &rate) in expected.iter().enumerate() {
            let entries = k * len..(k + 1) * len;
            // Turns by block: posed when the frame plus the block's index is a multiple of
            // the member's own rate.
            let posed = frame == 0 || (frame + (k / 64) as u64).is_multiple_of(u64::from(rate));
            let want = if posed { &full.palette } else { &held };
            assert!(
                far.palette[entries.clone()] == want[entries.clone()],
                "frame {frame}, member {k} (rate {rate}, posed {posed})"
            );
        }
        held.clone_from(&far.palette);
    }
}

#[test]
fn events_fire_once_per_crossing_whatever_the_rate() {
    use skinscope::pose::CrowdLod;
    let (c, mut full) = walkers(24);
    let (_, mut far) = walkers(24);
    let lod = CrowdLod {
        distances: [0.0, 0.0, 0.0],
    };
    let eye = glam::Vec3::splat(1e4);
    let by_member = |crowd: &Crowd, into: &mut Vec<Vec<(u32, f32)>>| {
        for e in &crowd.fired {
            into[e.member as usize].push((e.event, e.time_secs));
        }
    };
    let (mut a, mut b) = (vec![Vec::new(); 24], vec![Vec::new(); 24]);
    // 3 s at 60 Hz, then 8 frames more so every member's last turn comes after 3 s.
    for frame in 0..188 {
        let t = frame as f32 / 60.0;
        if frame < 180 {
            full.update(&c, t);
            by_member(&full, &mut a);
        }
        far.update_lod(&c, t, eye, lod);
        by_member(&far, &mut b);
    }
    for k in 0..24 {
        // 3 s of a 1 s cycle cross each of the two events 3 times (or 2, by phase), in order.
        assert!((5..=6).contains(&a[k].len()), "member {k}: {:?}", a[k]);
        // At 1 in 8 the same events fire, in the same order at the same clip times, just
        // later; the 8 frames after 3 s may add the next one.
        assert!(
            b[k].len() >= a[k].len() && b[k].len() <= a[k].len() + 1,
            "member {k}"
        );
        assert_eq!(&b[k][..a[k].len()], &a[k][..], "member {k}");
        for pair in a[k].windows(2) {
            assert_ne!(pair[0].0, pair[1].0, "member {k}: the feet alternate");
        }
    }
    // A step longer than whole loops: from 0 to 2.5 cycles, member 0 (phase 0) crosses
    // foot_left (0.25) at 0.25, 1.25 and 2.25, and foot_right (0.75) at 0.75 and 1.75.
    let (c, mut one) = walkers(1);
    one.update(&c, 0.0);
    assert!(one.fired.is_empty(), "the first pose fires nothing");
    one.update(&c, 2.5);
    let count = |event| one.fired.iter().filter(|e| e.event == event).count();
    assert_eq!((count(0), count(1)), (3, 2), "{:?}", one.fired);
    assert!(
        one.fired
            .iter()
            .all(|e| e.member == 0 && e.clip as usize == 1)
    );
}

#[test]
fn what_each_rate_costs_in_palette_error() {
    use skinscope::pose::CrowdLod;
    // Walking at 60 Hz, the held palette's worst error over a cycle against the full-rate one:
    // the pelvis's rotation (degrees) and the left foot's bind position moved (mm, the
    // mannequin's units being metres).
    let (c, _) = walkers(1);
    let skin = &c.skins[0].skin;
    let entry = |name| {
        let joint = c.skeleton.find(name).unwrap();
        1 + (0..skin.len())
            .position(|p| skin.joint(p) == Some(joint))
            .unwrap()
    };
    let (pelvis, thigh, foot) = (entry("pelvis"), entry("thigh_l"), entry("foot_l"));
    let foot_at = skin.joint_from_bind()[foot - 1].inverse().w_axis.truncate();
    let mut worst = Vec::new();
    for rate_index in 0..3 {
        let mut distances = [f32::INFINITY; 3];
        distances[..=rate_index].fill(0.0);
        let lod = CrowdLod { distances };
        let (_, mut full) = walkers(8);
        let (_, mut held) = walkers(8);
        let (mut degrees, mut mm) = (0.0f32, 0.0f32);
        let len = full.palette_len();
        for frame in 0..60 {
            let t = frame as f32 / 60.0;
            full.update(&c, t);
            held.update_lod(&c, t, glam::Vec3::ZERO, lod);
            for k in 0..8 {
                // Relative to the pelvis: the pose, not where root motion carried it.
                let local =
                    |p: &[glam::Mat4], e: usize| p[k * len + pelvis].inverse() * p[k * len + e];
                let (p, q) = (local(&full.palette, thigh), local(&held.palette, thigh));
                let rotation = |m: glam::Mat4| glam::Quat::from_mat4(&m).normalize();
                degrees = degrees.max(rotation(p).angle_between(rotation(q)).to_degrees());
                let (f, g) = (local(&full.palette, foot), local(&held.palette, foot));
                let moved = f.transform_point3(foot_at) - g.transform_point3(foot_at);
                mm = mm.max(1000.0 * moved.length());
            }
        }
        worst.push((degrees, mm));
    }
    // Holding longer costs more, about in proportion to the frames held (1, 3 and 7): measured
    // 2.6, 7.8 and 17.9 degrees at the hip, 77, 227 and 436 mm at the foot (its swing moves it
    // up to 77 mm a 60 Hz frame): level of detail is for members too far for that to show.
    assert!(
        worst.windows(2).all(|w| w[1].0 > w[0].0 && w[1].1 > w[0].1),
        "{worst:?}"
    );
    assert!(worst[0].0 < 4.0 && worst[0].1 < 100.0, "{worst:?}");
    assert!(
        worst[2].0 < 8.0 * worst[0].0 && worst[2].1 < 8.0 * worst[0].1,
        "{worst:?}"
    );
}

#[test]
fn the_viewer_s_crowd_takes_level_of_detail_from_the_camera() {
    let mut viewer = skinscope::viewer::Viewer::new(skinscope::builtin::character().unwrap(), None);
    viewer.controls.view.crowd = 16;
    viewer.controls.view.crowd_lod = true;
    // 100 heights away: every member beyond 40 heights, posed every 8th frame.
    viewer.camera_eye = Some(glam::Vec3::new(0.0, 0.0, 100.0 * viewer.derived.height));
    for _ in 0..3 {
        viewer.frame(Vec::new(), 1.0 / 60.0);
    }
    let rates = |v: &skinscope::viewer::Viewer| v.crowd.as_ref().unwrap().rates.clone();
    assert_eq!(rates(&viewer), vec![8; 16]);
    // The panel's switch off: every member every frame.
    viewer.controls.view.crowd_lod = false;
    viewer.frame(Vec::new(), 1.0 / 60.0);
    assert_eq!(rates(&viewer), vec![1; 16]);
}

#[test]
fn a_sequence_s_crowd_is_kept_and_its_far_members_held() {
    use skinscope::draw::headless::{CameraSpec, FrameRequest, Frames};
    let gpu = skinscope::render::gpu::Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let fox = import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let height = skinscope::pose::character_height(&fox);
    // 100 heights away through a narrow lens: every member posed every 8th frame.
    let request = |time, crowd_lod| FrameRequest {
        size: (96, 72),
        pose: PoseRequest::clip(1, time),
        crowd: Some(16),
        crowd_lod,
        camera: CameraSpec::Explicit {
            eye: glam::Vec3::new(0.0, 30.0 * height, 100.0 * height),
            target: Some(glam::Vec3::ZERO),
            fov_y_degrees: 5.0,
            near: Some(height),
            far: Some(1000.0 * height),
        },
        ..Default::default()
    };
    let (mut held, mut full) = (Frames::new(&fox), Frames::new(&fox));
    let mut frames = Vec::new();
    for frame in 0..3 {
        let t = frame as f32 / 10.0;
        let a = held.render(&gpu, &fox, &request(t, true), 0.0).unwrap().0;
        let b = full.render(&gpu, &fox, &request(t, false), 0.0).unwrap().0;
        frames.push((a, b));
    }
    let differ = |x: &[u8], y: &[u8]| x.iter().zip(y).filter(|(p, q)| p.abs_diff(**q) > 8).count();
    // The first frame poses everyone; then most members are held where they were.
    assert_eq!(differ(&frames[0].0, &frames[0].1), 0);
    assert!(differ(&frames[1].0, &frames[1].1) > 0, "nothing held");
    assert!(
        differ(&frames[1].1, &frames[0].1) > 0,
        "the crowd does not move at full rate"
    );
}
