// The background behind the character when it shows the environment: one triangle over the
// view, each pixel the environment's radiance along its ray (sharp, or blurred to the roughness
// camera.background.y), tone mapped as the surfaces are. Composed after camera.wgsl and
// light.wgsl.

struct BackgroundOut {
    @builtin(position) position: vec4<f32>,
    @location(0) clip: vec2<f32>,
}

@vertex
fn vs_background(@builtin(vertex_index) index: u32) -> BackgroundOut {
    let corner = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    let clip = corner * 2.0 - 1.0;
    var out: BackgroundOut;
    out.position = vec4<f32>(clip, 1.0, 1.0);
    out.clip = clip;
    return out;
}

@fragment
fn fs_background(in: BackgroundOut) -> @location(0) vec4<f32> {
    let through = camera.world_from_clip * vec4<f32>(in.clip, 0.5, 1.0);
    let ray = normalize(through.xyz / through.w - camera.eye.xyz);
    return vec4<f32>(tone_map(environment_specular(ray, camera.background.y)), 1.0);
}
