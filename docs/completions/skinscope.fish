# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_skinscope_global_optspecs
    string join \n frames= screenshot= window-size= no-panel open-section= mocap-listen= mocap-skeleton= retarget-from= retarget-map= environment= environment-rotation= environment-intensity= background-shows= replay= asset-root= h/help V/version
end

function __fish_skinscope_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_skinscope_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_skinscope_using_subcommand
    set -l cmd (__fish_skinscope_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c skinscope -n "__fish_skinscope_needs_command" -l frames -d 'Draw this many frames in the window (1 or more), then exit (with --screenshot: save the last one). A FILE that fails to load then exits 2, drawing nothing' -r
complete -c skinscope -n "__fish_skinscope_needs_command" -l screenshot -d 'Save the window\'s last frame (panel included) as .png, .jpg or .jpeg; needs --frames' -r -F
complete -c skinscope -n "__fish_skinscope_needs_command" -l window-size -d 'The window\'s size in logical pixels' -r
complete -c skinscope -n "__fish_skinscope_needs_command" -l open-section -d 'Open this section of the panel at start and scroll the panel to it (the guide\'s screenshots are taken so)' -r -f -a "file\t'The file: open, browse, add clips, recent files'
playback\t'The clip, play, step, speed and timeline'
blend\t'Two clips blended in step, and the transition to another'
external\t'The external pose: a motion-capture take or live stream'
layers\t'The override and additive layers'
state-machine\t'The state machine: its state and parameters'
plot\t'The selected joint\'s rotation plotted over time'
over-time\t'The history (rewind, tracks), onion skins, motion paths, stage ghosts and motion matching\'s candidates'
motion\t'Root motion, the ground, foot IK and reach IK'
matching\t'Motion matching'
drivers\t'Pose drivers'
muscles\t'XPBD muscles'
ml\t'The ML deformer'
physics\t'The ragdoll'
view\t'What is drawn: mesh, bones, names, palette, crowd, tone mapping, cameras'
environment\t'The HDR environment'
record\t'Recording a GIF, PNG sequence or video'
per-joint\t'Per-joint skinning: which joints use dual quaternions'
ddm\t'Direct delta mush\'s parameters'
morphs\t'The morph targets\' weights'
debug\t'The debug colourings and the split view'
check\t'The skinning lint on the character shown, with a Fix beside what can be repaired'
retarget\t'Retargeting: a source beside the character, its joint map, settings and exports'
skeleton\t'The skeleton\'s joints'
stats\t'The frame\'s statistics'
events\t'The events fired'
problems\t'The importer\'s warnings'"
complete -c skinscope -n "__fish_skinscope_needs_command" -l mocap-listen -d 'Listen for a live motion-capture stream on this loopback address (127.0.0.1:PORT): one BVH motion line a UDP datagram, in the hierarchy of --mocap-skeleton; it drives the joints it names (the panel\'s External pose section)' -r
complete -c skinscope -n "__fish_skinscope_needs_command" -l mocap-skeleton -d 'The BVH whose hierarchy --mocap-listen\'s motion lines follow' -r -F
complete -c skinscope -n "__fish_skinscope_needs_command" -l retarget-from -d 'Open the panel\'s Retarget section with this source beside the character (a .bvh take, or a glTF/GLB whose clips are retargeted), its joints auto-mapped (or through --retarget-map)' -r -F
complete -c skinscope -n "__fish_skinscope_needs_command" -l retarget-map -d 'The retarget map read over --retarget-from\'s auto-mapping' -r -F
complete -c skinscope -n "__fish_skinscope_needs_command" -l environment -d 'Light with an HDR environment: an equirectangular (latitude-longitude) Radiance .hdr or OpenEXR .exr image, prefiltered on the GPU at load (default: the generated sky)' -r -F
complete -c skinscope -n "__fish_skinscope_needs_command" -l environment-rotation -d 'Turn the environment about the vertical (+Y) by this many degrees' -r
complete -c skinscope -n "__fish_skinscope_needs_command" -l environment-intensity -d 'Scale the environment\'s light (the generated sky\'s too), 0 to 100' -r
complete -c skinscope -n "__fish_skinscope_needs_command" -l background-shows -d 'What the background shows: the flat --background colour, the environment, or the environment blurred' -r -f -a "flat\t''
environment\t''
blurred\t''"
complete -c skinscope -n "__fish_skinscope_needs_command" -l replay -d 'Replay a history the window saved ("Save history..." in the Over time section), on the model it was recorded on (FILE, or the built-in character): its frames shown as they were drawn, paused at the first; Play plays them through, the tracks and stepping as live' -r -F
complete -c skinscope -n "__fish_skinscope_needs_command" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_needs_command" -l no-panel -d 'Start with the panel hidden (H shows and hides it): the 3D view fills the window, as `render` draws it'
complete -c skinscope -n "__fish_skinscope_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skinscope -n "__fish_skinscope_needs_command" -s V -l version -d 'Print version'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "inspect" -d 'Describe a glTF file: skins, joints, clips, meshes, influences, warnings and errors. Exit status 0 when the file loads, 2 when it is refused'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "render" -d 'Render a posed character to a PNG without a window'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "check" -d 'Lint a file\'s skinning: bind-pose palette consistency, vertices against their joints, weights, influences, limits; the posed frame (--clip, --time, --blend, --palette) can be posed; bind vs identity renders; with --skin-on gpu, the GPU skin pass\'s vertices of the posed frame against the CPU reference (an error beyond 1e-5 of the bounds\' diagonal). Exit status 0 when no error is found, 1 when one is, 2 when the file cannot be loaded'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "fix" -d 'Repair what `check` finds and can repair safely (broken inverse binds, weights that do not sum to one, more influences than --limit, joints listed before their parents, and with --drop-unused the joints nothing uses) into a new .glb, everything else kept as it was; list each repair, and check the written file again. Exit status 0 when written and clean for what was repaired, or when there is nothing to fix (then nothing is written); 1 when a repaired kind is still found; 2 when the file or the options are refused'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "retarget" -d 'Put clips from other files (BVH takes, glTF clips) on a character and write its file with them added as glTF animations, everything else kept'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "diff" -d 'Compare two versions of a character: joints added, removed, renamed or re-parented; rest-pose and inverse-bind changes per joint; weights (dominant joint changes, the largest weight change) where the meshes match; clips added, removed or changed (duration, the largest joint displacement at their keys); the posed deformation (the largest vertex displacement per clip, and relative to the character\'s size). Exit status 0; 1 with --fail-over when a vertex moves farther; 2 when a file or an option is refused'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "palette" -d 'Print the skin palette of a posed frame: per joint its name, palette index and 16 floats (column-major); with --json also every joint\'s world_from_joint and every mesh node\'s world_from_mesh'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "pose" -d 'Write the posed mesh in world space as OBJ (every primitive of every mesh node, in scene order, vertices in file order, an `o` per node), or as GLB when --out ends in .glb'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "match-db" -d 'Build a character\'s motion-matching database (27 features a 60 Hz frame of its clips) and save it for --motion-db. Exit status 2 when the file or the options are refused'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "train-deformer" -d 'Train an ML deformer: learn from a reference deformer (direct delta mush, or linear blend with settled muscles) a corrective that linear blend skinning takes at its own cost (--ml-deformer), over poses from the clips; report its error on poses not trained on against linear blend\'s. Exit status 2 when the file or the options are refused'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "gpu-info" -d 'Print the GPU adapter wgpu picks (e.g. lavapipe without a GPU) and exit'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "generate-builtin" -d 'Write the built-in character (what `assets/skinscope_mannequin.glb` holds) to a file'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "completions" -d 'Print a shell completion script for skinscope (e.g. `skinscope completions bash > ~/.local/share/bash-completion/completions/skinscope`)'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "man" -d 'Write skinscope\'s man pages (skinscope.1 and one per subcommand, skinscope-render.1 ...) into a folder'
complete -c skinscope -n "__fish_skinscope_needs_command" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skinscope -n "__fish_skinscope_using_subcommand inspect" -l tolerance -d 'The error bound of --compression: the largest position error of a virtual vertex, in the file\'s units (default: 1e-4 of the character\'s height)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand inspect" -l ddm-iterations -d 'Direct delta mush: implicit smoothing steps p (at least 1; default 20)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand inspect" -l ddm-lambda -d 'Direct delta mush: the smoothing of Ψ, λ (positive; default 3)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand inspect" -l ddm-kappa -d 'Direct delta mush: the smoothing of the weights, κ (0 < κ < λ; default 1)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand inspect" -l ddm-alpha -d 'Direct delta mush: the blend toward the smoothed weights\' centroid, α (0 <= α < 1; default 0.8)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand inspect" -l ddm-cap -d 'Direct delta mush: the joints kept per vertex in Ω (1 to 64; default 64: every joint that weighs on a vertex, on the characters seen)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand inspect" -l clips-from -d 'List which of the character\'s joints this file\'s clips would drive (matched by name across the conventions, or through --retarget-map), the joints left out and the file\'s joints unused (repeatable)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand inspect" -l retarget-map -d 'The source -> target joint names --clips-from matches through' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand inspect" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand inspect" -l json -d 'One JSON document instead of text'
complete -c skinscope -n "__fish_skinscope_using_subcommand inspect" -l compression -d 'Compress every clip under a measured error bound and report, per clip, raw and compressed bytes, their ratio and the largest error measured over the clip'
complete -c skinscope -n "__fish_skinscope_using_subcommand inspect" -l ddm -d 'Precompute direct delta mush (with the --ddm-* parameters) and report Ω: entries, the joints kept per vertex and the cap, the terms dropped, the welded vertices, the bytes on the GPU and the time it took'
complete -c skinscope -n "__fish_skinscope_using_subcommand inspect" -s h -l help -d 'Print help'
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l clip -d 'Clip name or index (default: the first clip, or the rest pose when there is none)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l time -d 'Clip time in seconds; wraps around the clip, whose duration is its latest key over all its channels (morph weights included)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l speed -d 'Playback rate for the whole run, as the window\'s speed slider (-10..10; with --time it must be positive, and --time stays clip time): the clip, a blend, a transition\'s sides, the layers and the state machine all play at it' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l blend -d 'A second clip blended in step with the first: NAME_OR_INDEX:WEIGHT (weight 0..1)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l palette -d 'Which palette skins the mesh' -r -f -a "animated\t''
bind\t''
identity\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l morph -d 'A morph target\'s weight on top of the clip\'s: MESH:TARGET=WEIGHT, mesh and target by name or index (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l scene -d 'The scene to show, by name or index (default: the file\'s default scene)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l layer -d 'An override layer: CLIP:ROOT[,ROOT...]:WEIGHT, the clip (at the same time, looping) replacing the subtrees of the root joints; ROOT=W gives a subtree its own weight (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l additive -d 'An additive layer: CLIP:WEIGHT, the clip\'s difference from its first frame (at the same time, looping) added on top (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l transition -d 'A transition: TO_CLIP@START_SECS:DURATION_SECS[:inertialize]. The first clip plays from 0; at START the second starts from 0 and takes over, by a crossfade of DURATION seconds or by inertialization with a half-life of DURATION' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l graph -d 'A state machine file (default with the simulate option: the one beside the model, or the built-in character\'s)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l param -d 'A state machine parameter at t = 0: NAME=VALUE (true/false for bools, 1 for a trigger; repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l simulate -d 'Play from t = 0 at a fixed 60 Hz for SECS of real time and pose the last frame, as the window would play it: the clip, blend or transition the options choose, or (with --graph or --param, or with no clip option where there is one: the built-in character\'s, or FILE.skinscope.json beside the model) the state machine; else the first clip' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l root-motion -d 'Root motion: authored (left in the pose), in-place (removed), applied (removed and moving the character) or driven (removed; the character moves at --drive-speed and the clips play at the rate that matches it). Applied and driven integrate from t = 0 at 60 Hz to the clip time' -r -f -a "authored\t''
in-place\t''
applied\t''
driven\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l drive-speed -d 'Driven mode\'s speed in units per second along the character\'s heading (default: the clip\'s ground speed, so it plays at its own rate, as the window starts)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l root-motion-joint -d 'The root-motion joint (default: the topmost joint a clip translates)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l ik -d 'Reach IK: END_JOINT=X,Y,Z[:POLE_X,POLE_Y,POLE_Z], the two-bone chain ending at the joint brought to the world-space target, bending toward the pole (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l clips-from -d 'Add clips from another file, retargeted onto this character: a `.bvh` (one clip named after the file) or a glTF/GLB (its clips by name); joints matched by name across the common conventions (repeatable)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l retarget-map -d 'A JSON object of source -> target joint names for --clips-from, --mocap and --mocap-listen, for joints the naming conventions do not match' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l retarget-root-motion -d 'The hips\' travel across the ground: keep, remove (the clip plays in place) or a factor' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l retarget-motion-scale -d 'The hips\' travel multiplied by this (default: the ratio of the two skeletons\' hip heights)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l mocap -d 'An external pose played on its own clock (from t = 0, looping) over the animation, on the joints it drives: a .bvh take (retargeted onto the character by joint names, or --retarget-map) or one of the character\'s clips by name or index' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l mocap-listen -d 'Receive the external pose live: one BVH motion line a UDP datagram on this loopback address (127.0.0.1:PORT), in the hierarchy of --mocap-skeleton' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l mocap-skeleton -d 'The BVH whose hierarchy --mocap-listen\'s motion lines follow (its frames are not used)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l mocap-blend-back -d 'How long a stream that stopped takes to blend back to the animation, after holding its last frame for 0.2 s' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l mocap-wait -d 'How long --mocap-listen waits for the first datagram before it gives up' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l physics -d 'A ragdoll over the animation, last in the frame (after foot IK): powered (driven toward the animated pose at --physics-stiffness) or limp. Needs --simulate: it steps at 60 Hz' -r -f -a "powered\t''
limp\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l physics-weight -d 'The physics weight of a subtree: ROOT=W, W from 0 (the animation) to 1 (the physics); joints under no listed root weigh 0 (repeatable; none: every joint 1)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l physics-stiffness -d 'A powered ragdoll\'s drive toward the animation, per second (0 to 60)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l impulse -d 'An impulse on a joint\'s body at a time of the run: JOINT=X,Y,Z@SECS, in mass times speed (kg m/s for a character in metres; repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l path -d 'The goal: a JSON file {"keys": [{"t": 0, "velocity": [0, 0, 1.2]}, ...]}, the desired world velocity held from each key\'s time to the next' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l motion-db -d 'A database saved by `skinscope match-db` instead of building one' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l match-clips -d 'The clips motion matching searches: names or indices, comma-separated (default: the built-in character\'s locomotion clips, or every clip of a file)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l match-weight -d 'A feature group\'s weight: GROUP=W, GROUP one of foot-position, foot-velocity, hips-velocity, trajectory-position, trajectory-direction (repeatable; defaults 0.75, 1, 1, 1, 1.5)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l match-joints -d 'The joints the features read, by hand: LEFT_FOOT,RIGHT_FOOT,HIPS (default: the legs foot IK finds and their common ancestor)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l match-report -d 'Write every search of the run to this JSON file: its ten best candidates with their clip, frame, time, cost and each feature group\'s share of it, the frame playing and its cost, which was chosen, and why the playing one was kept or left' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l muscles -d 'XPBD muscles from a JSON file (or `default`: the built-in character\'s biceps, triceps, forearm, quadriceps and calves), the skin following them after skinning. Stepped at 60 Hz under --simulate (jiggle); otherwise settled at the frame\'s pose' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l ml-deformer -d 'An ML deformer saved by `train-deformer`: its learnt corrective added to linear blend skinning (needs --skinning lbs, the skinning it was trained against)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l drivers -d 'Pose drivers from a JSON file (or `default`: the built-in character\'s correctives): driver joints\' rotations interpolated between authored poses into corrective morph weights and helper joints\' offsets, after IK' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l dqs-joints -d 'Under `--skinning per-joint`: the joints whose subtrees skin by dual quaternions (ROOT[,ROOT...]), the rest by linear blend; `auto` picks the parents of the joints the clips twist about their bone by more than 60 degrees' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l replay -d 'Pose a frame of a history the window saved (its "Save history..."), exactly as it was drawn: --frame N (0 the first kept) of FILE, which must have been recorded on this model' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l frame -d 'The frame of --replay\'s history to pose' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l ground -d 'Foot IK on the ground this file describes (floor, steps, slopes, walls): the legs found by name planted on it, planted feet held (integrated from t = 0 at 60 Hz)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l out -d 'The image to write: .png, or .jpg / .jpeg; with --to, a sequence: .gif, .png (animated PNG), .mp4 (through ffmpeg) or numbered PNG files (frames/%04d.png)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l golden -d 'Compare the still with this image (the same size): exit 1 past --tolerance, and write the difference image beside --out (OUT-diff.png: far-off pixels red, the rest the difference magnified four times)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l tolerance -d 'How far from --golden passes: the mean absolute difference per channel (of 255), then optionally the share of pixels off by more than 24 in a channel (default 1.5,1%: the golden images\' tolerance of skinscope\'s own tests)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l to -d 'Record a sequence from --from to this many seconds of playback (real time at --speed, as the window plays; the end excluded): --out is then .gif, .png (animated), .mp4 or frames/%04d.png' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l from -d 'Where a sequence starts, in seconds of playback from 0 (default 0); the performance is played from 0 to it unrecorded, so root motion, physics and transitions are where the window would have them' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l fps -d 'A sequence\'s frames per second (1..240)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l turntable -d 'Orbit the camera this many degrees about the vertical over a sequence (360: once round; the last frame stops one step short of where the first began)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l gif-palette -d 'A GIF\'s palette: each frame\'s own (default), or one for every frame (no flicker; the frames are held until the last)' -r -f -a "frame\t''
global\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l size -d 'Image size in pixels' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l bones -d 'Draw the bones on top (always, for a skeleton without a mesh: a `.bvh`), as sticks (a bare --bones), Blender\'s octahedral bones (their roll shows) or each joint\'s local axes (X red, Y green, Z blue)' -r -f -a "stick\t''
octahedral\t''
axes\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l axes-of -d 'Draw this joint\'s local axes (by name or index): alone, with --bones axes, or over the other bones\' shapes (the window\'s "Selected joint\'s axes")' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l stage-ghosts -d 'Draw the skeleton as it leaves these stages of the frame over the final pose, one colour each: raw, root-motion, transition, external, layers, reach-ik, foot-ik, physics (STAGE[,STAGE...])' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l motion-path -d 'Draw these joints\' motion paths (JOINT[,JOINT...], by name or index): each joint\'s origin from --from to --to in clip time (default: the whole clip), a tick every --path-step and a white diamond at each key; on a still, --from and --to give the path\'s range' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l onion -d 'Onion skins: BEFORE,AFTER,STEP ghosts of the character before and after --time (at most 10 each side), translucent, warm before and cool after, fainter further away; STEP is a number of frames of 1/30 s (4), seconds (0.1s) or `keys` (the clip\'s nearest keys). Each ghost is posed as --time would pose its time' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l path-step -d 'Seconds between a motion path\'s ticks (default 1/30)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l background -d 'Background colour, R,G,B in 0..255' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l environment -d 'Light with an HDR environment: an equirectangular (latitude-longitude) Radiance .hdr or OpenEXR .exr image, prefiltered on the GPU at load (default: the generated sky)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l environment-rotation -d 'Turn the environment about the vertical (+Y) by this many degrees' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l environment-intensity -d 'Scale the environment\'s light (the generated sky\'s too), 0 to 100' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l background-shows -d 'What the background shows: the flat --background colour, the environment, or the environment blurred' -r -f -a "flat\t''
environment\t''
blurred\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l camera -d 'One of the file\'s cameras, by name or index (instead of --eye)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l eye -d 'Camera position X,Y,Z (default: framed on the clip\'s whole motion, three-quarter view)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l target -d 'Point looked at X,Y,Z (default: the character\'s centre)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l fov-y -d 'Vertical field of view in degrees (0..180)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l near -d 'Near plane distance (greater than 0, less than --far)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l far -d 'Far plane distance' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l color-by -d 'Colour the mesh for skinning debugging instead of by its materials; the colours\' legend (with the displacement\'s range) is drawn into the image\'s top-left corner, on images at least 200 pixels on each side, and printed' -r -f -a "material\t''
dominant-joint\t''
weight-sum\t''
influences\t''
displacement\t''
morph-displacement\t''
muscle-displacement\t'How far the muscles (--muscles) moved the skin'"
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l color-range -d 'Where the displacement views\' heat scale turns red: a distance in the file\'s units (0.01 shows a 1 cm corrective on a character in metres), `largest` (the largest displacement shown), or by default a part of the size (a tenth; 1% for the muscles)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l crowd -d 'Draw this many copies on a grid (1..100000), each at its own phase and weight of a blend of --clip and --blend\'s clip (or of --clip alone)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l compare -d 'What `--color-by displacement` compares with (only that view): a palette (default bind), or `clips`: the same frame from the other clips (the compressed ones, or the raw ones when playing compressed clips): where the compression error lands' -r -f -a "animated\t''
bind\t''
identity\t''
clips\t'The same frame from the other clips (raw against compressed)'"
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l tone-map -d 'Tone mapping (the Khronos Sample Viewer\'s choices)' -r -f -a "neutral\t''
aces\t''
none\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l exposure -d 'Exposure in stops (EV): the lit colour is scaled by 2^EV before tone mapping' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l skinning -d 'Linear blend, dual-quaternion (scale applied before the rigid part) or per-joint (weight-blended, `--dqs-joints`) skinning' -r -f -a "lbs\t''
dqs\t''
per-joint\t'Weight-blended: dual quaternions on the `--dqs-joints`, linear blend elsewhere'
ddm\t'Direct delta mush (the `--ddm-*` parameters): in the skin pass'"
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l ddm-iterations -d 'Direct delta mush: implicit smoothing steps p (at least 1; default 20)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l ddm-lambda -d 'Direct delta mush: the smoothing of Ψ, λ (positive; default 3)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l ddm-kappa -d 'Direct delta mush: the smoothing of the weights, κ (0 < κ < λ; default 1)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l ddm-alpha -d 'Direct delta mush: the blend toward the smoothed weights\' centroid, α (0 <= α < 1; default 0.8)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l ddm-cap -d 'Direct delta mush: the joints kept per vertex in Ω (1 to 64; default 64: every joint that weighs on a vertex, on the characters seen)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l skin-pass -d 'Where vertices are skinned: in each pass\'s vertex shader, once in a compute pass every pass reads, or auto (the compute pass when its output fits this GPU\'s buffers: it measured faster in every case on lavapipe)' -r -f -a "auto\t''
vertex\t''
compute\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l once -d 'Play the clips once, holding their ends, instead of looping (the window\'s Loop switch off)'
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l compressed -d 'Play the clips compressed (within 1e-4 of the character\'s height, as inspect\'s compression report gives them), as the viewer\'s "Play compressed clips" does'
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l retarget-ik-limbs -d 'Retarget arms and legs as IK chains (the feet keep their contacts on legs of other proportions) for --clips-from, --mocap and --mocap-listen'
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l retarget-rotation-only -d 'Retarget rotations only: every translation, the hips\' included, stays the character\'s rest'
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l motion-matching -d 'Motion matching chooses what plays: every 0.1 s the database frame nearest the current pose and the goal trajectory, switched to by inertialization, root motion applied. Needs --simulate (it steps at 60 Hz); the goal comes from --path (default: stand)'
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l wireframe -d 'Draw the triangles\' edges'
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l bind-axes -d 'With --bones axes: each joint\'s bind axes (from its skin\'s inverse bind matrix) beside its posed axes, paler and shorter; a transposed or mirrored inverse bind turns them away'
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l shadows -d 'The key light\'s shadow on a solid ground, with contact darkening under the feet (in place of the grid\'s lines)'
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l silhouette -d 'Every mesh flat white on black, no grid or overlays (mask comparisons)'
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l no-legend -d 'Leave the colour legend out of the image (it is still printed)'
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -l crowd-lod -d 'Level of detail for --crowd over a sequence (--to): members beyond 10, 20 and 40 character heights from the camera are posed every 2nd, 4th and 8th frame, held between'
complete -c skinscope -n "__fish_skinscope_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l clip -d 'Clip name or index (default: the first clip, or the rest pose when there is none)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l time -d 'Clip time in seconds; wraps around the clip, whose duration is its latest key over all its channels (morph weights included)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l speed -d 'Playback rate for the whole run, as the window\'s speed slider (-10..10; with --time it must be positive, and --time stays clip time): the clip, a blend, a transition\'s sides, the layers and the state machine all play at it' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l blend -d 'A second clip blended in step with the first: NAME_OR_INDEX:WEIGHT (weight 0..1)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l palette -d 'Which palette skins the mesh' -r -f -a "animated\t''
bind\t''
identity\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l morph -d 'A morph target\'s weight on top of the clip\'s: MESH:TARGET=WEIGHT, mesh and target by name or index (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l scene -d 'The scene to show, by name or index (default: the file\'s default scene)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l layer -d 'An override layer: CLIP:ROOT[,ROOT...]:WEIGHT, the clip (at the same time, looping) replacing the subtrees of the root joints; ROOT=W gives a subtree its own weight (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l additive -d 'An additive layer: CLIP:WEIGHT, the clip\'s difference from its first frame (at the same time, looping) added on top (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l transition -d 'A transition: TO_CLIP@START_SECS:DURATION_SECS[:inertialize]. The first clip plays from 0; at START the second starts from 0 and takes over, by a crossfade of DURATION seconds or by inertialization with a half-life of DURATION' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l graph -d 'A state machine file (default with the simulate option: the one beside the model, or the built-in character\'s)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l param -d 'A state machine parameter at t = 0: NAME=VALUE (true/false for bools, 1 for a trigger; repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l simulate -d 'Play from t = 0 at a fixed 60 Hz for SECS of real time and pose the last frame, as the window would play it: the clip, blend or transition the options choose, or (with --graph or --param, or with no clip option where there is one: the built-in character\'s, or FILE.skinscope.json beside the model) the state machine; else the first clip' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l root-motion -d 'Root motion: authored (left in the pose), in-place (removed), applied (removed and moving the character) or driven (removed; the character moves at --drive-speed and the clips play at the rate that matches it). Applied and driven integrate from t = 0 at 60 Hz to the clip time' -r -f -a "authored\t''
in-place\t''
applied\t''
driven\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l drive-speed -d 'Driven mode\'s speed in units per second along the character\'s heading (default: the clip\'s ground speed, so it plays at its own rate, as the window starts)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l root-motion-joint -d 'The root-motion joint (default: the topmost joint a clip translates)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l ik -d 'Reach IK: END_JOINT=X,Y,Z[:POLE_X,POLE_Y,POLE_Z], the two-bone chain ending at the joint brought to the world-space target, bending toward the pole (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l clips-from -d 'Add clips from another file, retargeted onto this character: a `.bvh` (one clip named after the file) or a glTF/GLB (its clips by name); joints matched by name across the common conventions (repeatable)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l retarget-map -d 'A JSON object of source -> target joint names for --clips-from, --mocap and --mocap-listen, for joints the naming conventions do not match' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l retarget-root-motion -d 'The hips\' travel across the ground: keep, remove (the clip plays in place) or a factor' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l retarget-motion-scale -d 'The hips\' travel multiplied by this (default: the ratio of the two skeletons\' hip heights)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l mocap -d 'An external pose played on its own clock (from t = 0, looping) over the animation, on the joints it drives: a .bvh take (retargeted onto the character by joint names, or --retarget-map) or one of the character\'s clips by name or index' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l mocap-listen -d 'Receive the external pose live: one BVH motion line a UDP datagram on this loopback address (127.0.0.1:PORT), in the hierarchy of --mocap-skeleton' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l mocap-skeleton -d 'The BVH whose hierarchy --mocap-listen\'s motion lines follow (its frames are not used)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l mocap-blend-back -d 'How long a stream that stopped takes to blend back to the animation, after holding its last frame for 0.2 s' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l mocap-wait -d 'How long --mocap-listen waits for the first datagram before it gives up' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l physics -d 'A ragdoll over the animation, last in the frame (after foot IK): powered (driven toward the animated pose at --physics-stiffness) or limp. Needs --simulate: it steps at 60 Hz' -r -f -a "powered\t''
limp\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l physics-weight -d 'The physics weight of a subtree: ROOT=W, W from 0 (the animation) to 1 (the physics); joints under no listed root weigh 0 (repeatable; none: every joint 1)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l physics-stiffness -d 'A powered ragdoll\'s drive toward the animation, per second (0 to 60)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l impulse -d 'An impulse on a joint\'s body at a time of the run: JOINT=X,Y,Z@SECS, in mass times speed (kg m/s for a character in metres; repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l path -d 'The goal: a JSON file {"keys": [{"t": 0, "velocity": [0, 0, 1.2]}, ...]}, the desired world velocity held from each key\'s time to the next' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l motion-db -d 'A database saved by `skinscope match-db` instead of building one' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l match-clips -d 'The clips motion matching searches: names or indices, comma-separated (default: the built-in character\'s locomotion clips, or every clip of a file)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l match-weight -d 'A feature group\'s weight: GROUP=W, GROUP one of foot-position, foot-velocity, hips-velocity, trajectory-position, trajectory-direction (repeatable; defaults 0.75, 1, 1, 1, 1.5)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l match-joints -d 'The joints the features read, by hand: LEFT_FOOT,RIGHT_FOOT,HIPS (default: the legs foot IK finds and their common ancestor)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l match-report -d 'Write every search of the run to this JSON file: its ten best candidates with their clip, frame, time, cost and each feature group\'s share of it, the frame playing and its cost, which was chosen, and why the playing one was kept or left' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l muscles -d 'XPBD muscles from a JSON file (or `default`: the built-in character\'s biceps, triceps, forearm, quadriceps and calves), the skin following them after skinning. Stepped at 60 Hz under --simulate (jiggle); otherwise settled at the frame\'s pose' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l ml-deformer -d 'An ML deformer saved by `train-deformer`: its learnt corrective added to linear blend skinning (needs --skinning lbs, the skinning it was trained against)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l drivers -d 'Pose drivers from a JSON file (or `default`: the built-in character\'s correctives): driver joints\' rotations interpolated between authored poses into corrective morph weights and helper joints\' offsets, after IK' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l dqs-joints -d 'Under `--skinning per-joint`: the joints whose subtrees skin by dual quaternions (ROOT[,ROOT...]), the rest by linear blend; `auto` picks the parents of the joints the clips twist about their bone by more than 60 degrees' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l replay -d 'Pose a frame of a history the window saved (its "Save history..."), exactly as it was drawn: --frame N (0 the first kept) of FILE, which must have been recorded on this model' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l frame -d 'The frame of --replay\'s history to pose' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l ground -d 'Foot IK on the ground this file describes (floor, steps, slopes, walls): the legs found by name planted on it, planted feet held (integrated from t = 0 at 60 Hz)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l skin-on -d 'Where the vertices are skinned: on the CPU (the reference) or on the GPU (the skin pass every draw reads, read back: the vertices drawn)' -r -f -a "cpu\t''
gpu\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l skinning -d 'Linear blend, dual-quaternion or per-joint (weight-blended, `--dqs-joints`) skinning' -r -f -a "lbs\t''
dqs\t''
per-joint\t'Weight-blended: dual quaternions on the `--dqs-joints`, linear blend elsewhere'
ddm\t'Direct delta mush (the `--ddm-*` parameters): in the skin pass'"
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l ddm-iterations -d 'Direct delta mush: implicit smoothing steps p (at least 1; default 20)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l ddm-lambda -d 'Direct delta mush: the smoothing of Ψ, λ (positive; default 3)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l ddm-kappa -d 'Direct delta mush: the smoothing of the weights, κ (0 < κ < λ; default 1)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l ddm-alpha -d 'Direct delta mush: the blend toward the smoothed weights\' centroid, α (0 <= α < 1; default 0.8)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l ddm-cap -d 'Direct delta mush: the joints kept per vertex in Ω (1 to 64; default 64: every joint that weighs on a vertex, on the characters seen)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l format -d 'How to write the report: text, json, junit (JUnit XML: a test case per error or warning, errors failing) or sarif (SARIF 2.1.0: a result per finding)' -r -f -a "text\t''
json\t''
junit\t''
sarif\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l once -d 'Play the clips once, holding their ends, instead of looping (the window\'s Loop switch off)'
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l compressed -d 'Play the clips compressed (within 1e-4 of the character\'s height, as inspect\'s compression report gives them), as the viewer\'s "Play compressed clips" does'
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l retarget-ik-limbs -d 'Retarget arms and legs as IK chains (the feet keep their contacts on legs of other proportions) for --clips-from, --mocap and --mocap-listen'
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l retarget-rotation-only -d 'Retarget rotations only: every translation, the hips\' included, stays the character\'s rest'
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l motion-matching -d 'Motion matching chooses what plays: every 0.1 s the database frame nearest the current pose and the goal trajectory, switched to by inertialization, root motion applied. Needs --simulate (it steps at 60 Hz); the goal comes from --path (default: stand)'
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l json -d 'One JSON document instead of text (the same as --format json)'
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -l foot-slide -d 'Instead of the lint: how far each planted foot slides over one loop of the clip (root motion applied), worst and mean speed in units per second'
complete -c skinscope -n "__fish_skinscope_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skinscope -n "__fish_skinscope_using_subcommand fix" -l out -d 'Where to write the repaired file: a .glb (its buffers and images carried inside)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand fix" -l limit -d 'The most influences a vertex keeps (the largest; the rest dropped and the weights normalised again): 1 to 8' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand fix" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand fix" -l drop-unused -d 'Also drop from each skin\'s list the joints no vertex, no joint below them and no animation uses (their nodes stay in the scene)'
complete -c skinscope -n "__fish_skinscope_using_subcommand fix" -l json -d 'One JSON document instead of text'
complete -c skinscope -n "__fish_skinscope_using_subcommand fix" -s h -l help -d 'Print help'
complete -c skinscope -n "__fish_skinscope_using_subcommand retarget" -l from -d 'A file whose clips are retargeted: a .bvh take, or a glTF/GLB\'s clips (repeatable: a batch into one file)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand retarget" -l to -d 'The character the clips are put on: a .gltf or .glb file' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand retarget" -l out -d 'Where to write the character with the clips added: a .glb (its buffers and images carried inside)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand retarget" -l map -d 'A retarget map (the `--retarget-map` format; the window\'s Save map writes one): the joints paired and the settings. Without one, joints are auto-mapped' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand retarget" -l root-motion -d 'The hips\' travel across the ground: keep, remove (in place) or a factor' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand retarget" -l motion-scale -d 'The hips\' travel multiplied by this (default: the ratio of the hip heights)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand retarget" -l tolerance -d 'The bound of --reduce, in the file\'s units' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand retarget" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand retarget" -l ik-limbs -d 'Arms and legs as IK chains: the feet keep their contacts on legs of other proportions'
complete -c skinscope -n "__fish_skinscope_using_subcommand retarget" -l rotation-only -d 'Rotations only: every translation, the hips\' included, stays the character\'s rest'
complete -c skinscope -n "__fish_skinscope_using_subcommand retarget" -l reduce -d 'Drop the keys that interpolation reproduces within the compression error bound (1e-4 of the character\'s height at each joint\'s skin reach, as `inspect --compression` measures), instead of keying at the source\'s rate'
complete -c skinscope -n "__fish_skinscope_using_subcommand retarget" -l json -d 'One JSON document instead of text'
complete -c skinscope -n "__fish_skinscope_using_subcommand retarget" -s h -l help -d 'Print help'
complete -c skinscope -n "__fish_skinscope_using_subcommand diff" -l format -d 'How to write the report: text, json, junit (JUnit XML, one test case per compared part) or sarif (SARIF 2.1.0, one result per difference)' -r -f -a "text\t''
json\t''
junit\t''
sarif\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand diff" -l fail-over -d 'Exit 1 when a skinned vertex moves farther than this between the versions (in the bind pose or any clip both have): a distance in the file\'s units, or a share of the character\'s size with a % sign (1%)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand diff" -l image -d 'Render B at the worst frame with each vertex coloured by how far it moved from A (blue still, red at the largest displacement) into this PNG' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand diff" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand diff" -l json -d 'One JSON document instead of text (the same as --format json)'
complete -c skinscope -n "__fish_skinscope_using_subcommand diff" -s h -l help -d 'Print help'
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l clip -d 'Clip name or index (default: the first clip, or the rest pose when there is none)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l time -d 'Clip time in seconds; wraps around the clip, whose duration is its latest key over all its channels (morph weights included)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l speed -d 'Playback rate for the whole run, as the window\'s speed slider (-10..10; with --time it must be positive, and --time stays clip time): the clip, a blend, a transition\'s sides, the layers and the state machine all play at it' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l blend -d 'A second clip blended in step with the first: NAME_OR_INDEX:WEIGHT (weight 0..1)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l palette -d 'Which palette skins the mesh' -r -f -a "animated\t''
bind\t''
identity\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l morph -d 'A morph target\'s weight on top of the clip\'s: MESH:TARGET=WEIGHT, mesh and target by name or index (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l scene -d 'The scene to show, by name or index (default: the file\'s default scene)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l layer -d 'An override layer: CLIP:ROOT[,ROOT...]:WEIGHT, the clip (at the same time, looping) replacing the subtrees of the root joints; ROOT=W gives a subtree its own weight (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l additive -d 'An additive layer: CLIP:WEIGHT, the clip\'s difference from its first frame (at the same time, looping) added on top (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l transition -d 'A transition: TO_CLIP@START_SECS:DURATION_SECS[:inertialize]. The first clip plays from 0; at START the second starts from 0 and takes over, by a crossfade of DURATION seconds or by inertialization with a half-life of DURATION' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l graph -d 'A state machine file (default with the simulate option: the one beside the model, or the built-in character\'s)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l param -d 'A state machine parameter at t = 0: NAME=VALUE (true/false for bools, 1 for a trigger; repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l simulate -d 'Play from t = 0 at a fixed 60 Hz for SECS of real time and pose the last frame, as the window would play it: the clip, blend or transition the options choose, or (with --graph or --param, or with no clip option where there is one: the built-in character\'s, or FILE.skinscope.json beside the model) the state machine; else the first clip' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l root-motion -d 'Root motion: authored (left in the pose), in-place (removed), applied (removed and moving the character) or driven (removed; the character moves at --drive-speed and the clips play at the rate that matches it). Applied and driven integrate from t = 0 at 60 Hz to the clip time' -r -f -a "authored\t''
in-place\t''
applied\t''
driven\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l drive-speed -d 'Driven mode\'s speed in units per second along the character\'s heading (default: the clip\'s ground speed, so it plays at its own rate, as the window starts)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l root-motion-joint -d 'The root-motion joint (default: the topmost joint a clip translates)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l ik -d 'Reach IK: END_JOINT=X,Y,Z[:POLE_X,POLE_Y,POLE_Z], the two-bone chain ending at the joint brought to the world-space target, bending toward the pole (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l clips-from -d 'Add clips from another file, retargeted onto this character: a `.bvh` (one clip named after the file) or a glTF/GLB (its clips by name); joints matched by name across the common conventions (repeatable)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l retarget-map -d 'A JSON object of source -> target joint names for --clips-from, --mocap and --mocap-listen, for joints the naming conventions do not match' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l retarget-root-motion -d 'The hips\' travel across the ground: keep, remove (the clip plays in place) or a factor' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l retarget-motion-scale -d 'The hips\' travel multiplied by this (default: the ratio of the two skeletons\' hip heights)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l mocap -d 'An external pose played on its own clock (from t = 0, looping) over the animation, on the joints it drives: a .bvh take (retargeted onto the character by joint names, or --retarget-map) or one of the character\'s clips by name or index' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l mocap-listen -d 'Receive the external pose live: one BVH motion line a UDP datagram on this loopback address (127.0.0.1:PORT), in the hierarchy of --mocap-skeleton' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l mocap-skeleton -d 'The BVH whose hierarchy --mocap-listen\'s motion lines follow (its frames are not used)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l mocap-blend-back -d 'How long a stream that stopped takes to blend back to the animation, after holding its last frame for 0.2 s' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l mocap-wait -d 'How long --mocap-listen waits for the first datagram before it gives up' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l physics -d 'A ragdoll over the animation, last in the frame (after foot IK): powered (driven toward the animated pose at --physics-stiffness) or limp. Needs --simulate: it steps at 60 Hz' -r -f -a "powered\t''
limp\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l physics-weight -d 'The physics weight of a subtree: ROOT=W, W from 0 (the animation) to 1 (the physics); joints under no listed root weigh 0 (repeatable; none: every joint 1)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l physics-stiffness -d 'A powered ragdoll\'s drive toward the animation, per second (0 to 60)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l impulse -d 'An impulse on a joint\'s body at a time of the run: JOINT=X,Y,Z@SECS, in mass times speed (kg m/s for a character in metres; repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l path -d 'The goal: a JSON file {"keys": [{"t": 0, "velocity": [0, 0, 1.2]}, ...]}, the desired world velocity held from each key\'s time to the next' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l motion-db -d 'A database saved by `skinscope match-db` instead of building one' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l match-clips -d 'The clips motion matching searches: names or indices, comma-separated (default: the built-in character\'s locomotion clips, or every clip of a file)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l match-weight -d 'A feature group\'s weight: GROUP=W, GROUP one of foot-position, foot-velocity, hips-velocity, trajectory-position, trajectory-direction (repeatable; defaults 0.75, 1, 1, 1, 1.5)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l match-joints -d 'The joints the features read, by hand: LEFT_FOOT,RIGHT_FOOT,HIPS (default: the legs foot IK finds and their common ancestor)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l match-report -d 'Write every search of the run to this JSON file: its ten best candidates with their clip, frame, time, cost and each feature group\'s share of it, the frame playing and its cost, which was chosen, and why the playing one was kept or left' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l muscles -d 'XPBD muscles from a JSON file (or `default`: the built-in character\'s biceps, triceps, forearm, quadriceps and calves), the skin following them after skinning. Stepped at 60 Hz under --simulate (jiggle); otherwise settled at the frame\'s pose' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l ml-deformer -d 'An ML deformer saved by `train-deformer`: its learnt corrective added to linear blend skinning (needs --skinning lbs, the skinning it was trained against)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l drivers -d 'Pose drivers from a JSON file (or `default`: the built-in character\'s correctives): driver joints\' rotations interpolated between authored poses into corrective morph weights and helper joints\' offsets, after IK' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l dqs-joints -d 'Under `--skinning per-joint`: the joints whose subtrees skin by dual quaternions (ROOT[,ROOT...]), the rest by linear blend; `auto` picks the parents of the joints the clips twist about their bone by more than 60 degrees' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l replay -d 'Pose a frame of a history the window saved (its "Save history..."), exactly as it was drawn: --frame N (0 the first kept) of FILE, which must have been recorded on this model' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l frame -d 'The frame of --replay\'s history to pose' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l ground -d 'Foot IK on the ground this file describes (floor, steps, slopes, walls): the legs found by name planted on it, planted feet held (integrated from t = 0 at 60 Hz)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l stage -d 'The pose as it leaves this stage of the frame, its palettes composed from it: raw, root-motion, transition, external, layers, reach-ik, foot-ik or physics (the last is the frame\'s pose before the pose drivers)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l motion-path -d 'Print these joints\' paths instead (JOINT[,JOINT...], by name or index): each joint\'s world_from_joint at every --step from --from to --to in clip time, each time posed as --time would pose it, and at each key of the joint or an ancestor in the range' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l from -d 'The path\'s first clip time in seconds (default 0)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l to -d 'The path\'s last clip time in seconds (default: the clip\'s duration)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l step -d 'Seconds between the path\'s samples (default 1/30)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l once -d 'Play the clips once, holding their ends, instead of looping (the window\'s Loop switch off)'
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l compressed -d 'Play the clips compressed (within 1e-4 of the character\'s height, as inspect\'s compression report gives them), as the viewer\'s "Play compressed clips" does'
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l retarget-ik-limbs -d 'Retarget arms and legs as IK chains (the feet keep their contacts on legs of other proportions) for --clips-from, --mocap and --mocap-listen'
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l retarget-rotation-only -d 'Retarget rotations only: every translation, the hips\' included, stays the character\'s rest'
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l motion-matching -d 'Motion matching chooses what plays: every 0.1 s the database frame nearest the current pose and the goal trajectory, switched to by inertialization, root motion applied. Needs --simulate (it steps at 60 Hz); the goal comes from --path (default: stand)'
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -l json
complete -c skinscope -n "__fish_skinscope_using_subcommand palette" -s h -l help -d 'Print help'
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l clip -d 'Clip name or index (default: the first clip, or the rest pose when there is none)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l time -d 'Clip time in seconds; wraps around the clip, whose duration is its latest key over all its channels (morph weights included)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l speed -d 'Playback rate for the whole run, as the window\'s speed slider (-10..10; with --time it must be positive, and --time stays clip time): the clip, a blend, a transition\'s sides, the layers and the state machine all play at it' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l blend -d 'A second clip blended in step with the first: NAME_OR_INDEX:WEIGHT (weight 0..1)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l palette -d 'Which palette skins the mesh' -r -f -a "animated\t''
bind\t''
identity\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l morph -d 'A morph target\'s weight on top of the clip\'s: MESH:TARGET=WEIGHT, mesh and target by name or index (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l scene -d 'The scene to show, by name or index (default: the file\'s default scene)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l layer -d 'An override layer: CLIP:ROOT[,ROOT...]:WEIGHT, the clip (at the same time, looping) replacing the subtrees of the root joints; ROOT=W gives a subtree its own weight (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l additive -d 'An additive layer: CLIP:WEIGHT, the clip\'s difference from its first frame (at the same time, looping) added on top (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l transition -d 'A transition: TO_CLIP@START_SECS:DURATION_SECS[:inertialize]. The first clip plays from 0; at START the second starts from 0 and takes over, by a crossfade of DURATION seconds or by inertialization with a half-life of DURATION' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l graph -d 'A state machine file (default with the simulate option: the one beside the model, or the built-in character\'s)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l param -d 'A state machine parameter at t = 0: NAME=VALUE (true/false for bools, 1 for a trigger; repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l simulate -d 'Play from t = 0 at a fixed 60 Hz for SECS of real time and pose the last frame, as the window would play it: the clip, blend or transition the options choose, or (with --graph or --param, or with no clip option where there is one: the built-in character\'s, or FILE.skinscope.json beside the model) the state machine; else the first clip' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l root-motion -d 'Root motion: authored (left in the pose), in-place (removed), applied (removed and moving the character) or driven (removed; the character moves at --drive-speed and the clips play at the rate that matches it). Applied and driven integrate from t = 0 at 60 Hz to the clip time' -r -f -a "authored\t''
in-place\t''
applied\t''
driven\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l drive-speed -d 'Driven mode\'s speed in units per second along the character\'s heading (default: the clip\'s ground speed, so it plays at its own rate, as the window starts)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l root-motion-joint -d 'The root-motion joint (default: the topmost joint a clip translates)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l ik -d 'Reach IK: END_JOINT=X,Y,Z[:POLE_X,POLE_Y,POLE_Z], the two-bone chain ending at the joint brought to the world-space target, bending toward the pole (repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l clips-from -d 'Add clips from another file, retargeted onto this character: a `.bvh` (one clip named after the file) or a glTF/GLB (its clips by name); joints matched by name across the common conventions (repeatable)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l retarget-map -d 'A JSON object of source -> target joint names for --clips-from, --mocap and --mocap-listen, for joints the naming conventions do not match' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l retarget-root-motion -d 'The hips\' travel across the ground: keep, remove (the clip plays in place) or a factor' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l retarget-motion-scale -d 'The hips\' travel multiplied by this (default: the ratio of the two skeletons\' hip heights)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l mocap -d 'An external pose played on its own clock (from t = 0, looping) over the animation, on the joints it drives: a .bvh take (retargeted onto the character by joint names, or --retarget-map) or one of the character\'s clips by name or index' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l mocap-listen -d 'Receive the external pose live: one BVH motion line a UDP datagram on this loopback address (127.0.0.1:PORT), in the hierarchy of --mocap-skeleton' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l mocap-skeleton -d 'The BVH whose hierarchy --mocap-listen\'s motion lines follow (its frames are not used)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l mocap-blend-back -d 'How long a stream that stopped takes to blend back to the animation, after holding its last frame for 0.2 s' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l mocap-wait -d 'How long --mocap-listen waits for the first datagram before it gives up' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l physics -d 'A ragdoll over the animation, last in the frame (after foot IK): powered (driven toward the animated pose at --physics-stiffness) or limp. Needs --simulate: it steps at 60 Hz' -r -f -a "powered\t''
limp\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l physics-weight -d 'The physics weight of a subtree: ROOT=W, W from 0 (the animation) to 1 (the physics); joints under no listed root weigh 0 (repeatable; none: every joint 1)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l physics-stiffness -d 'A powered ragdoll\'s drive toward the animation, per second (0 to 60)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l impulse -d 'An impulse on a joint\'s body at a time of the run: JOINT=X,Y,Z@SECS, in mass times speed (kg m/s for a character in metres; repeatable)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l path -d 'The goal: a JSON file {"keys": [{"t": 0, "velocity": [0, 0, 1.2]}, ...]}, the desired world velocity held from each key\'s time to the next' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l motion-db -d 'A database saved by `skinscope match-db` instead of building one' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l match-clips -d 'The clips motion matching searches: names or indices, comma-separated (default: the built-in character\'s locomotion clips, or every clip of a file)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l match-weight -d 'A feature group\'s weight: GROUP=W, GROUP one of foot-position, foot-velocity, hips-velocity, trajectory-position, trajectory-direction (repeatable; defaults 0.75, 1, 1, 1, 1.5)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l match-joints -d 'The joints the features read, by hand: LEFT_FOOT,RIGHT_FOOT,HIPS (default: the legs foot IK finds and their common ancestor)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l match-report -d 'Write every search of the run to this JSON file: its ten best candidates with their clip, frame, time, cost and each feature group\'s share of it, the frame playing and its cost, which was chosen, and why the playing one was kept or left' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l muscles -d 'XPBD muscles from a JSON file (or `default`: the built-in character\'s biceps, triceps, forearm, quadriceps and calves), the skin following them after skinning. Stepped at 60 Hz under --simulate (jiggle); otherwise settled at the frame\'s pose' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l ml-deformer -d 'An ML deformer saved by `train-deformer`: its learnt corrective added to linear blend skinning (needs --skinning lbs, the skinning it was trained against)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l drivers -d 'Pose drivers from a JSON file (or `default`: the built-in character\'s correctives): driver joints\' rotations interpolated between authored poses into corrective morph weights and helper joints\' offsets, after IK' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l dqs-joints -d 'Under `--skinning per-joint`: the joints whose subtrees skin by dual quaternions (ROOT[,ROOT...]), the rest by linear blend; `auto` picks the parents of the joints the clips twist about their bone by more than 60 degrees' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l replay -d 'Pose a frame of a history the window saved (its "Save history..."), exactly as it was drawn: --frame N (0 the first kept) of FILE, which must have been recorded on this model' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l frame -d 'The frame of --replay\'s history to pose' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l ground -d 'Foot IK on the ground this file describes (floor, steps, slopes, walls): the legs found by name planted on it, planted feet held (integrated from t = 0 at 60 Hz)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l skin-on -d 'Where the vertices are skinned: on the CPU (the reference) or on the GPU (the skin pass every draw reads, read back: the vertices drawn)' -r -f -a "cpu\t''
gpu\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l skinning -d 'Linear blend, dual-quaternion or per-joint (weight-blended, `--dqs-joints`) skinning' -r -f -a "lbs\t''
dqs\t''
per-joint\t'Weight-blended: dual quaternions on the `--dqs-joints`, linear blend elsewhere'
ddm\t'Direct delta mush (the `--ddm-*` parameters): in the skin pass'"
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l ddm-iterations -d 'Direct delta mush: implicit smoothing steps p (at least 1; default 20)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l ddm-lambda -d 'Direct delta mush: the smoothing of Ψ, λ (positive; default 3)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l ddm-kappa -d 'Direct delta mush: the smoothing of the weights, κ (0 < κ < λ; default 1)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l ddm-alpha -d 'Direct delta mush: the blend toward the smoothed weights\' centroid, α (0 <= α < 1; default 0.8)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l ddm-cap -d 'Direct delta mush: the joints kept per vertex in Ω (1 to 64; default 64: every joint that weighs on a vertex, on the characters seen)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l out -d 'The file to write: .obj or .glb' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l once -d 'Play the clips once, holding their ends, instead of looping (the window\'s Loop switch off)'
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l compressed -d 'Play the clips compressed (within 1e-4 of the character\'s height, as inspect\'s compression report gives them), as the viewer\'s "Play compressed clips" does'
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l retarget-ik-limbs -d 'Retarget arms and legs as IK chains (the feet keep their contacts on legs of other proportions) for --clips-from, --mocap and --mocap-listen'
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l retarget-rotation-only -d 'Retarget rotations only: every translation, the hips\' included, stays the character\'s rest'
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -l motion-matching -d 'Motion matching chooses what plays: every 0.1 s the database frame nearest the current pose and the goal trajectory, switched to by inertialization, root motion applied. Needs --simulate (it steps at 60 Hz); the goal comes from --path (default: stand)'
complete -c skinscope -n "__fish_skinscope_using_subcommand pose" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skinscope -n "__fish_skinscope_using_subcommand match-db" -l clips-from -d 'Add clips from another file, retargeted (as the posing commands\' --clips-from)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand match-db" -l retarget-map -d 'Joint names for --clips-from the conventions do not match (a JSON object)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand match-db" -l match-clips -d 'The clips motion matching searches: names or indices, comma-separated (default: the built-in character\'s locomotion clips, or every clip of a file)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand match-db" -l match-weight -d 'A feature group\'s weight: GROUP=W, GROUP one of foot-position, foot-velocity, hips-velocity, trajectory-position, trajectory-direction (repeatable; defaults 0.75, 1, 1, 1, 1.5)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand match-db" -l match-joints -d 'The joints the features read, by hand: LEFT_FOOT,RIGHT_FOOT,HIPS (default: the legs foot IK finds and their common ancestor)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand match-db" -l out -d 'Where to write the database' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand match-db" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand match-db" -s h -l help -d 'Print help'
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l reference -d 'The deformer to learn' -r -f -a "ddm\t'Direct delta mush (the --ddm-* parameters)'
muscles\t'Linear blend plus the muscles (--muscles), settled at each pose'"
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l out -d 'Where to write the model (read back by --ml-deformer)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l poses -d 'Poses trained on: half the clips\' frames, half random mixes of their joints\' rotations' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l held-out -d 'Random poses not trained on, measured after training' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l components -d 'Components kept by PCA (1 to 64)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l ridge -d 'Ridge regularisation, relative to the features\' mean square' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l seed -d 'The random poses\' seed' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l map -d 'The map from the pose to the components\' weights: the ridge regression, a perceptron of one hidden layer, or (auto) the perceptron when it lowers the held-out RMS error by more than 20%' -r -f -a "auto\t''
ridge\t''
mlp\t''"
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l hidden -d 'The perceptron\'s hidden units' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l epochs -d 'The perceptron\'s training epochs (full-batch Adam)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l muscles -d 'The muscles of --reference muscles (a JSON file, or `default`: the character\'s own)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l ddm-iterations -d 'Direct delta mush: implicit smoothing steps p (at least 1; default 20)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l ddm-lambda -d 'Direct delta mush: the smoothing of Ψ, λ (positive; default 3)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l ddm-kappa -d 'Direct delta mush: the smoothing of the weights, κ (0 < κ < λ; default 1)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l ddm-alpha -d 'Direct delta mush: the blend toward the smoothed weights\' centroid, α (0 <= α < 1; default 0.8)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l ddm-cap -d 'Direct delta mush: the joints kept per vertex in Ω (1 to 64; default 64: every joint that weighs on a vertex, on the characters seen)' -r
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand train-deformer" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skinscope -n "__fish_skinscope_using_subcommand gpu-info" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand gpu-info" -s h -l help -d 'Print help'
complete -c skinscope -n "__fish_skinscope_using_subcommand generate-builtin" -l out -d 'Where to write it (the committed copy is assets/skinscope_mannequin.glb)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand generate-builtin" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand generate-builtin" -s h -l help -d 'Print help'
complete -c skinscope -n "__fish_skinscope_using_subcommand completions" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand completions" -s h -l help -d 'Print help'
complete -c skinscope -n "__fish_skinscope_using_subcommand man" -l out -d 'The folder (made if missing)' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand man" -l asset-root -d 'The folder tree a model\'s buffers and images may come from (default: the model\'s own folder and those under it): name the root of an exported asset tree whose textures sit in a sibling folder (`../textures/a.png`). Every model the command reads, and the --clips-from files, are held to it' -r -F
complete -c skinscope -n "__fish_skinscope_using_subcommand man" -s h -l help -d 'Print help'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "inspect" -d 'Describe a glTF file: skins, joints, clips, meshes, influences, warnings and errors. Exit status 0 when the file loads, 2 when it is refused'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "render" -d 'Render a posed character to a PNG without a window'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "check" -d 'Lint a file\'s skinning: bind-pose palette consistency, vertices against their joints, weights, influences, limits; the posed frame (--clip, --time, --blend, --palette) can be posed; bind vs identity renders; with --skin-on gpu, the GPU skin pass\'s vertices of the posed frame against the CPU reference (an error beyond 1e-5 of the bounds\' diagonal). Exit status 0 when no error is found, 1 when one is, 2 when the file cannot be loaded'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "fix" -d 'Repair what `check` finds and can repair safely (broken inverse binds, weights that do not sum to one, more influences than --limit, joints listed before their parents, and with --drop-unused the joints nothing uses) into a new .glb, everything else kept as it was; list each repair, and check the written file again. Exit status 0 when written and clean for what was repaired, or when there is nothing to fix (then nothing is written); 1 when a repaired kind is still found; 2 when the file or the options are refused'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "retarget" -d 'Put clips from other files (BVH takes, glTF clips) on a character and write its file with them added as glTF animations, everything else kept'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "diff" -d 'Compare two versions of a character: joints added, removed, renamed or re-parented; rest-pose and inverse-bind changes per joint; weights (dominant joint changes, the largest weight change) where the meshes match; clips added, removed or changed (duration, the largest joint displacement at their keys); the posed deformation (the largest vertex displacement per clip, and relative to the character\'s size). Exit status 0; 1 with --fail-over when a vertex moves farther; 2 when a file or an option is refused'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "palette" -d 'Print the skin palette of a posed frame: per joint its name, palette index and 16 floats (column-major); with --json also every joint\'s world_from_joint and every mesh node\'s world_from_mesh'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "pose" -d 'Write the posed mesh in world space as OBJ (every primitive of every mesh node, in scene order, vertices in file order, an `o` per node), or as GLB when --out ends in .glb'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "match-db" -d 'Build a character\'s motion-matching database (27 features a 60 Hz frame of its clips) and save it for --motion-db. Exit status 2 when the file or the options are refused'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "train-deformer" -d 'Train an ML deformer: learn from a reference deformer (direct delta mush, or linear blend with settled muscles) a corrective that linear blend skinning takes at its own cost (--ml-deformer), over poses from the clips; report its error on poses not trained on against linear blend\'s. Exit status 2 when the file or the options are refused'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "gpu-info" -d 'Print the GPU adapter wgpu picks (e.g. lavapipe without a GPU) and exit'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "generate-builtin" -d 'Write the built-in character (what `assets/skinscope_mannequin.glb` holds) to a file'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "completions" -d 'Print a shell completion script for skinscope (e.g. `skinscope completions bash > ~/.local/share/bash-completion/completions/skinscope`)'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "man" -d 'Write skinscope\'s man pages (skinscope.1 and one per subcommand, skinscope-render.1 ...) into a folder'
complete -c skinscope -n "__fish_skinscope_using_subcommand help; and not __fish_seen_subcommand_from inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
