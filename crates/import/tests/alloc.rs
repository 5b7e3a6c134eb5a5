//! The pose pipeline allocates nothing per frame once warmed up: sampling, blending, composing
//! and palettes write into buffers sized once. Counted with a global allocator (this test file
//! is its own binary, so the count is this test's alone).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn posing_frames_allocate_nothing_after_warm_up() {
    let path = skinscope_testkit::shared("Fox/Fox.glb");
    let fox = skinscope_import::load(&path).unwrap();
    let mut pose = skinscope_core::pose::CharacterPose::new(&fox);
    let mut playback = skinscope_anim::Playback::new(fox.clips[1].duration_secs());
    // Every third frame also runs the layer and transition stages: an override layer through a
    // mask (crossfading from an earlier clip), an additive layer and an inertialized switch (its
    // offsets recorded on the first such frame, then decayed). The request is built once; only
    // its times change.
    let neck = fox.skeleton.find("b_Neck_04").unwrap();
    let mask = std::sync::Arc::new(skinscope_anim::JointMask::from_roots(
        &fox.skeleton,
        &[(neck, 1.0)],
    ));
    let at = |clip, time_secs| skinscope_core::pose::ClipTime { clip, time_secs };
    let mut layered = skinscope_core::pose::PoseRequest::clip(1, 0.0);
    layered.layers = vec![
        skinscope_core::pose::PoseLayer {
            clip: at(0, 0.0),
            weight: 0.7,
            mask: Some(mask),
            blend: skinscope_core::pose::LayerBlend::Override,
            fading_out: Some((at(2, 0.0), 0.3)),
        },
        skinscope_core::pose::PoseLayer {
            clip: at(2, 0.0),
            weight: 0.5,
            mask: None,
            blend: skinscope_core::pose::LayerBlend::Additive {
                reference: Some(at(2, 0.0)),
            },
            fading_out: None,
        },
    ];
    let mut inertial = skinscope_core::pose::Inertial {
        to: at(1, 0.0),
        to_blend: None,
        from_rate: 1.0,
        to_rate: 1.0,
        half_life_secs: 0.2,
        elapsed_secs: 0.0,
        carried_secs: None,
    };
    let mut frame = |pose: &mut skinscope_core::pose::CharacterPose,
                     playback: &mut skinscope_anim::Playback,
                     k: usize| {
        playback.advance(1.0 / 60.0);
        let t = playback.time_secs();
        if k % 3 == 2 {
            inertial.elapsed_secs = k as f32 / 60.0;
            layered.clip = Some(at(1, t));
            layered.layers[0].clip.time_secs = t;
            layered.layers[1].clip.time_secs = t * 0.5;
            layered.transition = Some(skinscope_core::pose::Transition {
                from: at(2, 0.3),
                from_blend: Some(skinscope_core::pose::BlendSpec { b: 0, weight: 0.5 }),
                kind: skinscope_core::pose::TransitionKind::Inertialize(inertial),
            });
            pose.evaluate(&fox, &layered).unwrap();
            return;
        }
        let request = skinscope_core::pose::PoseRequest::clip(1, t);
        let request = if k.is_multiple_of(2) {
            request
        } else {
            request.with_blend(2, 0.3)
        };
        pose.evaluate(&fox, &request).unwrap();
    };
    for k in 0..10 {
        frame(&mut pose, &mut playback, k);
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for k in 0..600 {
        frame(&mut pose, &mut playback, k);
    }
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(
        after - before,
        0,
        "{} allocations in 600 frames",
        after - before
    );
    // The counter works: building a pose allocates.
    let _another = skinscope_core::pose::CharacterPose::new(&fox);
    assert!(ALLOCATIONS.load(Ordering::Relaxed) > after);
}
