// The characters' shadows, from two depth maps drawn from the skin pass's output (each vertex
// skinned once for the shadows and the shaded pass): layer 0 seen from the key light, layer 1
// from just under the ground looking up (the casters' lowest points, for the ground's contact
// darkening). Composed after camera.wgsl. With shadows off (camera.shadow.x 0) nothing is read.

@group(0) @binding(2) var shadow_maps: texture_depth_2d_array;
@group(0) @binding(3) var shadow_sampler: sampler_comparison;

// Layer 1 covers heights from a quarter of the contact radius under the ground to the radius
// over it (`SHADOW_BELOW` in src/render/renderer/shadow.rs).
const SHADOW_BELOW: f32 = 0.25;

// Where `world` falls in shadow map `layer`: texture coordinates (xy) and depth (z).
fn shadow_coords(layer: u32, world: vec3<f32>) -> vec3<f32> {
    let p = camera.shadow_from_world[layer] * vec4<f32>(world, 1.0);
    return vec3<f32>(p.x * 0.5 + 0.5, 0.5 - p.y * 0.5, p.z);
}

// The fraction of the key light reaching `world` (1: all of it). The receiver is moved along its
// normal `n` (camera.shadow.y, about a texel and a half) against self-shadowing acne, and the
// comparison is filtered over 4x4 taps of the hardware's 2x2 (percentage-closer, 5x5 texels).
// Outside the map (nothing casts there) everything is lit.
fn key_light_visibility(world: vec3<f32>, n: vec3<f32>) -> f32 {
    return key_light_visibility_at(shadow_coords(0u, world + n * camera.shadow.y));
}

// `key_light_visibility` at the receiver's (offset) coordinates `s` in layer 0.
fn key_light_visibility_at(s: vec3<f32>) -> f32 {
    if camera.shadow.x == 0.0 {
        return 1.0;
    }
    if any(s.xy <= vec2<f32>(0.0)) || any(s.xy >= vec2<f32>(1.0)) {
        return 1.0;
    }
    let texel = 1.0 / vec2<f32>(textureDimensions(shadow_maps));
    let depth = clamp(s.z, 0.0, 1.0);
    // The four corner taps first: where they agree, wholly lit or wholly shadowed, the whole
    // filter would (most of the map), and the other twelve are skipped.
    var corners = 0.0;
    for (var k = 0; k < 4; k++) {
        let o = (vec2<f32>(f32(k & 1), f32(k >> 1u)) * 3.0 - 1.5) * texel;
        corners += textureSampleCompareLevel(shadow_maps, shadow_sampler, s.xy + o, 0, depth);
    }
    if corners == 0.0 || corners == 4.0 {
        return corners / 4.0;
    }
    var lit = 0.0;
    for (var y = 0; y < 4; y++) {
        for (var x = 0; x < 4; x++) {
            let o = (vec2<f32>(f32(x), f32(y)) - 1.5) * texel;
            lit += textureSampleCompareLevel(shadow_maps, shadow_sampler, s.xy + o, 0, depth);
        }
    }
    return lit / 16.0;
}

// How much the casters close over a ground point at height `y` whose coordinates in layer 1 are
// `centre` (0: nothing near, 1: resting on it): 16 points of a disk of the contact radius
// (camera.shadow.z), each darkened by how near the casters' lowest point above it is, in three
// dimensions.
fn contact_occlusion(y: f32, centre: vec3<f32>) -> f32 {
    let radius = camera.shadow.z;
    if camera.shadow.x == 0.0 || radius <= 0.0 {
        return 0.0;
    }
    // Layer 1 covers the casters' bounds and a radius around them: outside it no caster is near.
    if any(centre.xy <= vec2<f32>(0.0)) || any(centre.xy >= vec2<f32>(1.0)) {
        return 0.0;
    }
    // Its view is orthographic: a step along world x or z moves the coordinates by a constant.
    let m = camera.shadow_from_world[1u];
    let along_x = vec2<f32>(m[0].x, -m[0].y) * 0.5;
    let along_z = vec2<f32>(m[2].x, -m[2].y) * 0.5;
    let size = vec2<i32>(textureDimensions(shadow_maps));
    let near = camera.ground.y - SHADOW_BELOW * radius;
    let range = (1.0 + SHADOW_BELOW) * radius;
    var occlusion = 0.0;
    for (var i = 0; i < 16; i++) {
        let angle = f32(i) * 2.39996;
        let r = radius * sqrt((f32(i) + 0.5) / 16.0);
        let s = centre.xy + along_x * (cos(angle) * r) + along_z * (sin(angle) * r);
        if any(s <= vec2<f32>(0.0)) || any(s.xy >= vec2<f32>(1.0)) {
            continue;
        }
        let texel = clamp(vec2<i32>(s * vec2<f32>(size)), vec2<i32>(0), size - 1);
        let lowest = near + textureLoad(shadow_maps, texel, 1, 0) * range;
        let height = max(lowest - y, 0.0);
        occlusion += clamp(1.0 - length(vec2<f32>(r, height)) / radius, 0.0, 1.0);
    }
    // A flat caster resting on the ground closes the whole disk: its taps average about 1/3.
    return clamp(occlusion / 16.0 * 3.0, 0.0, 1.0);
}
