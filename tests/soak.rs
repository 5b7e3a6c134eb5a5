//! Soak: the viewer driven headless for 4,000 frames with random panel actions (egui_kittest),
//! posing and colouring every frame as the window does. Live heap bytes, counted by a global
//! allocator, must not grow after warm-up. (4,000 frames: the built-in character's one surface
//! has about 22,500 vertices, and a debug build colours them on the CPU every frame; 10,000
//! frames took over 7 minutes.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use skinscope::builtin;
use skinscope::ui;
use skinscope::viewer::Viewer;

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const FRAMES: usize = 4_000;
const WARM_UP: usize = 1_000;

#[test]
fn four_thousand_frames_of_random_actions_keep_memory_flat() {
    let viewer = Viewer::new(builtin::character().unwrap(), None);
    let mut h = Harness::builder()
        .with_size((1100.0, 1400.0))
        .build_ui_state(
            |ui, viewer: &mut Viewer| {
                viewer.advance(1.0 / 60.0);
                viewer.pose_frame();
                // The window uploads these every frame a debug view is on.
                let colors = viewer.vertex_colors();
                std::hint::black_box(&colors);
                let (commands, _) = ui::show(ui, viewer);
                for c in commands {
                    viewer.apply(c);
                }
                // The window carries these out each frame.
                viewer.window_requests.clear();
            },
            viewer,
        );
    let toggles = [
        "Bones",
        "Wireframe",
        "Grid",
        "Shadows",
        "Mesh",
        "Joint names",
        "Loop",
        "Step >|",
        "|< Step",
        "Animated",
        "Bind",
        "Identity",
        "Blend two clips (phase-aligned)",
        "Split view, right:",
        "Frame (F)",
    ];
    let sliders = [
        ("Speed", -2.0, 2.0),
        ("Weight of B", 0.0, 1.0),
        ("Time (s)", 0.0, 1.0),
    ];
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut warm = 0isize;
    let mut samples = Vec::new();
    for frame in 0..FRAMES {
        match next() % 8 {
            0 | 1 => {
                let label = toggles[(next() % toggles.len() as u64) as usize];
                // Some labels appear twice (the palette and compare radios): pick one.
                let nodes: Vec<_> = h.query_all_by_label(label).collect();
                if !nodes.is_empty() {
                    nodes[(next() % nodes.len() as u64) as usize].click();
                }
            }
            2 => {
                let (label, lo, hi) = sliders[(next() % sliders.len() as u64) as usize];
                if let Some(node) = h.query_by_role_and_label(egui::accesskit::Role::Slider, label)
                {
                    let x = (next() % 1000) as f64 / 1000.0;
                    node.set_value_accesskit(lo + (hi - lo) * x);
                }
            }
            3 => {
                // Cycle the colour views and the crowd through the controls directly.
                let v = &mut h.state_mut().controls;
                v.debug.color_view = match next() % 6 {
                    0 => skinscope::debug::colors::ColorView::Material,
                    1 => skinscope::debug::colors::ColorView::DominantJoint,
                    2 => skinscope::debug::colors::ColorView::SelectedJointWeight,
                    3 => skinscope::debug::colors::ColorView::WeightSumDeviation,
                    4 => skinscope::debug::colors::ColorView::InfluenceCount,
                    _ => skinscope::debug::colors::ColorView::Displacement,
                };
                v.view.crowd = if next() % 10 == 0 { 9 } else { 0 };
            }
            _ => {}
        }
        h.step();
        if frame == WARM_UP {
            warm = LIVE.load(Ordering::Relaxed);
        }
        if frame > WARM_UP && frame % 500 == 0 {
            samples.push(LIVE.load(Ordering::Relaxed) - warm);
        }
    }
    // Return to a known state and let egui settle, then compare with the warm-up level.
    {
        let v = &mut h.state_mut().controls;
        v.view.crowd = 0;
        v.debug.color_view = skinscope::debug::colors::ColorView::Material;
    }
    h.run();
    let growth = LIVE.load(Ordering::Relaxed) - warm;
    println!("live heap after warm-up, every 500 frames (bytes): {samples:?}; at the end {growth}");
    assert!(
        growth < 512 * 1024,
        "live heap grew by {growth} bytes over {} frames",
        FRAMES - WARM_UP
    );
}
