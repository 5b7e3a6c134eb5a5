//! The viewer's skinning-debug tools: colourings, palette comparison, picking; and the same
//! colourings rendered on the GPU.

use crate::common;

use glam::{Vec2, Vec3, Vec4};
use skinscope::builtin;
use skinscope::debug::colors::{ColorView, heat, index_color, vertex_colors};
use skinscope::debug::picking::ScreenView;
use skinscope::import;
use skinscope::pose::{CharacterPose, PaletteMode, PoseRequest, TimeWrap};
use skinscope::render::camera::Camera;
use skinscope::viewer::Viewer;

fn posed(
    c: &skinscope::character::Character,
    mode: PaletteMode,
    clip: Option<usize>,
    t: f32,
) -> CharacterPose {
    let mut pose = CharacterPose::new(c);
    pose.evaluate(
        c,
        &PoseRequest::at(clip, t)
            .with_wrap(TimeWrap::Clamp)
            .with_palette(mode),
    )
    .unwrap();
    pose
}

#[test]
fn joint_colours_are_stable_and_distinct() {
    let colors: Vec<Vec4> = (0..64).map(index_color).collect();
    for i in 0..64 {
        assert_eq!(colors[i], index_color(i), "stable");
        for j in 0..i {
            assert!(
                colors[i].distance(colors[j]) > 0.015,
                "{i} and {j} look alike"
            );
        }
    }
    // Fox: every vertex takes the colour of its heaviest joint.
    let fox = import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let pose = posed(&fox, PaletteMode::Animated, Some(0), 0.5);
    let colors = vertex_colors(&fox, ColorView::DominantJoint, &pose, None, None);
    let s = fox.meshes[0].primitives[0].skinning.as_ref().unwrap();
    for (v, c) in colors[0][0].iter().enumerate() {
        let k = (0..4)
            .max_by(|a, b| s.weights[v][*a].total_cmp(&s.weights[v][*b]))
            .unwrap();
        assert_eq!(*c, index_color(s.joints[v][k] as usize));
    }
}

#[test]
fn heat_maps_weights_sums_and_influences() {
    assert_eq!(heat(0.0), Vec4::new(0.05, 0.1, 0.6, 1.0));
    assert_eq!(heat(1.0), Vec4::new(0.9, 0.05, 0.05, 1.0));
    let c = builtin::character().unwrap();
    let pose = posed(&c, PaletteMode::Animated, None, 0.0);
    let head = c.skeleton.find("head").unwrap();
    let colors = vertex_colors(&c, ColorView::SelectedJointWeight, &pose, None, Some(head));
    // The head's vertices (skin primitive) weigh 1 on the head: red; the feet weigh 0: blue.
    let skin_primitive = &c.meshes[0].primitives[1];
    let s = skin_primitive.skinning.as_ref().unwrap();
    let palette_head = (0..22)
        .find(|&p| c.skins[0].skin.joint(p) == Some(head))
        .unwrap() as u16;
    let on_head = (0..s.joints.len())
        .find(|&v| s.joints[v][0] == palette_head && s.weights[v][0] == 1.0)
        .unwrap();
    assert_eq!(colors[0][1][on_head], heat(1.0));
    assert_eq!(
        colors[0][0][0],
        heat(0.0),
        "the first body vertex (pelvis) has no head weight"
    );
    // Built-in weights sum to one (to float precision): all green; influence counts 1 to 4.
    let sums = vertex_colors(&c, ColorView::WeightSumDeviation, &pose, None, None);
    assert!(
        sums.iter()
            .flatten()
            .flatten()
            .all(|c| c.distance(Vec4::new(0.1, 0.75, 0.2, 1.0)) < 1e-3)
    );
    let counts = vertex_colors(&c, ColorView::InfluenceCount, &pose, None, None);
    let distinct: std::collections::BTreeSet<String> = counts
        .iter()
        .flatten()
        .flatten()
        .map(|c| format!("{c:?}"))
        .collect();
    assert_eq!(distinct.len(), 4, "{distinct:?}");
}

#[test]
fn displacement_is_zero_between_agreeing_palettes_and_grows_with_motion() {
    let fox = import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let bind = posed(&fox, PaletteMode::Bind, None, 0.0);
    let identity = posed(&fox, PaletteMode::Identity, None, 0.0);
    let same = vertex_colors(&fox, ColorView::Displacement, &bind, Some(&identity), None);
    assert!(
        same.iter()
            .flatten()
            .flatten()
            .all(|c| c.distance(heat(0.0)) < 0.02)
    );
    let run = fox
        .clips
        .iter()
        .position(|c| c.clip.name() == "Run")
        .unwrap();
    let moving = posed(&fox, PaletteMode::Animated, Some(run), 0.3);
    let moved = vertex_colors(&fox, ColorView::Displacement, &moving, Some(&bind), None);
    let hot = moved
        .iter()
        .flatten()
        .flatten()
        .filter(|c| c.distance(heat(0.0)) > 0.1)
        .count();
    assert!(hot > 500, "{hot} vertices moved");
}

/// Where a world point lands in a 800x600 view at the origin.
fn screen(camera: &Camera, p: Vec3) -> Vec2 {
    let clip = camera.clip_from_world(800.0 / 600.0) * p.extend(1.0);
    let ndc = clip.truncate() / clip.w;
    Vec2::new((ndc.x + 1.0) * 400.0, (1.0 - ndc.y) * 300.0)
}

#[test]
fn clicking_picks_joints_and_vertices() {
    let mut viewer = Viewer::new(builtin::character().unwrap(), None);
    viewer.controls.playback.playing = false;
    viewer.pose_frame();
    let (min, max) = viewer.pose.world_bounds(&viewer.character).unwrap();
    let camera = Camera::framing(min, max, 40.0, 800.0 / 600.0);
    let view = ScreenView {
        origin: Vec2::ZERO,
        size: Vec2::new(800.0, 600.0),
        clip_from_world: camera.clip_from_world(800.0 / 600.0),
    };
    // A joint: the left hand.
    let hand = viewer.character.skeleton.find("hand_l").unwrap();
    let at = screen(
        &camera,
        Vec3::from(viewer.pose.model.as_slice()[hand].translation),
    );
    assert!(viewer.pick(at + Vec2::new(2.0, -1.0), &view, None));
    assert_eq!(viewer.controls.selected_joint, Some(hand));
    assert_eq!(
        viewer.controls.debug.color_view,
        ColorView::SelectedJointWeight,
        "its weighted vertices light up"
    );
    // A vertex: the top of the head, far from any joint on screen.
    let world = viewer.pose.world_positions(&viewer.character);
    let top = (0..world.len())
        .max_by(|a, b| world[*a].y.total_cmp(&world[*b].y))
        .unwrap();
    assert!(viewer.pick(screen(&camera, world[top]), &view, None));
    let picked = viewer.picked_vertex.clone().unwrap();
    assert!(
        picked.position.distance(world[top]) < 0.02,
        "{:?} vs {}",
        picked.position,
        world[top]
    );
    let names: Vec<&str> = picked.influences.iter().map(|i| i.0.as_str()).collect();
    assert_eq!(names, ["head"]);
    let total: f32 = picked.influences.iter().map(|i| i.2).sum();
    assert!((total - 1.0).abs() < 1e-6);
    // Empty space picks nothing.
    assert!(!viewer.pick(Vec2::new(5.0, 5.0), &view, None));
    assert!(viewer.picked_vertex.is_none());
}

#[test]
fn split_view_compares_the_chosen_palette() {
    let mut viewer = Viewer::new(builtin::character().unwrap(), None);
    viewer.controls.debug.split = true;
    viewer.controls.debug.compare = PaletteMode::Identity;
    viewer.advance(0.3);
    viewer.pose_frame();
    // The right half shows the same local pose under the identity palette: every entry identity.
    let c = &viewer.character;
    assert!(
        viewer
            .compare_pose
            .instance_palette(0)
            .unwrap()
            .iter()
            .all(|m| *m == glam::Mat4::IDENTITY)
    );
    assert_ne!(
        viewer.pose.world_positions(c),
        viewer.compare_pose.world_positions(c)
    );
    assert_eq!(viewer.compare_pose.local(), viewer.pose.local());
}

#[test]
fn debug_colours_render_on_the_gpu() {
    let gpu = skinscope::render::gpu::Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let fox = import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let request = skinscope::draw::headless::FrameRequest {
        size: (200, 150),
        pose: PoseRequest::clip(0, 0.0),
        color_view: ColorView::DominantJoint,
        options: skinscope::render::renderer::DrawOptions {
            grid: false,
            background: [0.0; 3],
            ..Default::default()
        },
        ..Default::default()
    };
    let pixels = skinscope::draw::headless::render_frame(&gpu, &fox, &request).unwrap();
    // Quantised hues of the lit pixels: many joints' colours, not the orange texture.
    let hues: std::collections::BTreeSet<(u8, u8, u8)> = pixels
        .chunks_exact(4)
        .filter(|p| p[0] > 0 || p[1] > 0 || p[2] > 0)
        .map(|p| (p[0] / 64, p[1] / 64, p[2] / 64))
        .collect();
    assert!(hues.len() > 10, "{} colour buckets", hues.len());
}
