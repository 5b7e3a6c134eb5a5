//! GPU tests: they run on whatever adapter exists (Mesa's lavapipe in CI) and fail, never skip,
//! when there is none.

use glam::{Mat4, Quat, Vec3};
use skinscope::anim::{self, LocalPose, ModelPose, Skeleton, Skin, SkinPalette, Transform};
use skinscope::render::gpu::Gpu;
use skinscope::render::skin_check::{CheckVertex, skin_on_gpu};

fn gpu() -> Gpu {
    match Gpu::headless() {
        Ok(gpu) => gpu,
        Err(e) => panic!("cannot create a wgpu device: {e}"),
    }
}

#[test]
fn device_is_created_on_an_available_adapter() {
    let gpu = gpu();
    let name = gpu.describe();
    println!("adapter: {name}");
    assert!(!gpu.adapter.get_info().name.is_empty(), "{name}");
    // The device works: a buffer written by the queue reads back unchanged.
    let data: Vec<u32> = (0..64u32).map(|i| i.wrapping_mul(2654435761)).collect();
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("roundtrip"),
        size: 256,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    gpu.queue
        .write_buffer(&buffer, 0, bytemuck::cast_slice(&data));
    let back = gpu.read_buffer(&buffer, 256).unwrap();
    assert_eq!(bytemuck::cast_slice::<u8, u32>(&back), &data[..]);
}

/// A three-joint chain posed away from its bind pose, and vertices with 1 to 4 influences.
#[test]
fn wgsl_skinning_matches_the_cpu_reference() {
    let rest = vec![
        Transform::IDENTITY,
        Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
        Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
    ];
    let names = vec!["hip".into(), "spine".into(), "head".into()];
    let skeleton = Skeleton::new(names, vec![None, Some(0), Some(1)], rest).unwrap();
    let joint_from_bind = vec![
        Mat4::IDENTITY,
        Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0)),
        Mat4::from_translation(Vec3::new(0.0, -2.0, 0.0)),
    ];
    let skin = Skin::all_joints(&skeleton, joint_from_bind).unwrap();
    let mut local = LocalPose::rest(&skeleton);
    local.as_mut_slice()[0].translation = Vec3::new(0.5, 0.0, -0.25);
    local.as_mut_slice()[1].rotation = Quat::from_rotation_z(0.7);
    local.as_mut_slice()[2].rotation = Quat::from_rotation_x(-0.4);
    local.as_mut_slice()[2].scale = Vec3::splat(1.5);
    let mut model = ModelPose::new(&skeleton);
    anim::local_to_model(&skeleton, &local, &mut model).unwrap();
    let mut palette = SkinPalette::new(&skin);
    anim::build_palette(&model, &skin, Mat4::IDENTITY, &mut palette).unwrap();
    let palette = palette.as_slice();

    let influences: [([u32; 4], [f32; 4]); 4] = [
        ([2, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
        ([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0]),
        ([1, 2, 0, 0], [0.25, 0.6, 0.15, 0.0]),
        ([0, 1, 2, 1], [0.1, 0.2, 0.3, 0.4]),
    ];
    let mut vertices = Vec::new();
    for i in 0..100 {
        let f = i as f32;
        let position = Vec3::new((f * 0.37).sin(), f * 0.025, (f * 0.11).cos());
        let normal = Vec3::new(f.cos(), 0.3, f.sin()).normalize();
        let (joints, weights) = influences[i % influences.len()];
        vertices.push(CheckVertex::new(position, normal, joints, weights));
    }
    let gpu_result = skin_on_gpu(&gpu(), palette, &vertices).unwrap();
    assert_eq!(gpu_result.len(), vertices.len());
    let mut moved = 0;
    for (v, (gpu_p, gpu_n)) in vertices.iter().zip(&gpu_result) {
        let p = Vec3::from_slice(&v.position[..3]);
        let n = Vec3::from_slice(&v.normal[..3]);
        let cpu_p = anim::skin_position(palette, v.joints, v.weights, p).unwrap();
        let cpu_n = anim::skin_normal(palette, v.joints, v.weights, n).unwrap();
        assert!(
            gpu_p.abs_diff_eq(cpu_p, 1e-5),
            "{p}: gpu {gpu_p} cpu {cpu_p}"
        );
        assert!(
            gpu_n.abs_diff_eq(cpu_n, 1e-5),
            "{n}: gpu {gpu_n} cpu {cpu_n}"
        );
        if cpu_p.distance(p) > 0.1 {
            moved += 1;
        }
    }
    // The pose is far from the bind pose, so the comparison is not identity against identity.
    assert!(moved > 90, "only {moved} vertices moved");
}
