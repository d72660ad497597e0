(* `redist run`: generates the header for a problem (as `gen` does, for the
   plan of any strategy), compiles it with the driver codegen/driver/run_main.cpp
   and the checks of runtime/testing/verify.hpp (both embedded in the binary)
   against the MPI runtime, runs it under mpirun on every rank of the world,
   and reports whether every rank's target box came out right, the time, the
   measured memory next to the proven bound and, for a direct exchange,
   whether every rank received exactly its proven lower bound. *)

module F = Front

(* The toolchain or mpirun failed, or the runtime refused the run: exit 4. *)
exception Tool_error of string

let fail fmt = Printf.ksprintf (fun s -> raise (Tool_error s)) fmt

let max_procs = 256

(* ---- where the runtime is ---- *)

let ( / ) = Filename.concat

(* In link order: the MPI backend uses the common part. *)
let libraries prefix = [ prefix / "lib" / "libredist_mpi.a"; prefix / "lib" / "libredist_common.a" ]

(* A runtime prefix: the headers and the static libraries, as `make install`
   installs them and `make runtime` stages them into ROOT/_build/prefix. *)
let is_prefix d = List.for_all Sys.file_exists ((d / "include" / "redist" / "redist.hpp") :: libraries d)

let rec ancestors d =
  let parent = Filename.dirname d in
  if parent = d then [ d ] else d :: ancestors parent

(* Never builds anything: concurrent runs then cannot race, and a run never
   calls make or a package manager.  REDIST_RUNTIME_PREFIX first; then the
   prefix the running executable is installed in (PREFIX/bin/redist); then
   the prefix staged in the source tree the executable was built in (dune
   puts it under ROOT/_build). *)
let locate_prefix () =
  match Sys.getenv_opt "REDIST_RUNTIME_PREFIX" with
  | Some p when p <> "" ->
      if is_prefix p then p
      else fail "REDIST_RUNTIME_PREFIX=%s holds no include/redist/redist.hpp, lib/libredist_mpi.a and lib/libredist_common.a" p
  | _ -> (
      let exe_dir = Filename.dirname Sys.executable_name in
      let staged =
        List.find_map (fun d -> if Filename.basename d = "_build" then Some (d / "prefix") else None) (ancestors exe_dir)
      in
      match List.find_opt is_prefix (Filename.dirname exe_dir :: Option.to_list staged) with
      | Some p -> p
      | None -> fail "no redist runtime found: run `make runtime` or set REDIST_RUNTIME_PREFIX")

let on_path prog =
  let dirs = String.split_on_char ':' (Option.value (Sys.getenv_opt "PATH") ~default:"") in
  List.exists (fun d -> d <> "" && Sys.file_exists (d / prog)) dirs

(* mpirun's options, each with the reason it is there; `redist run --help`
   prints this table.  Every rank runs on this host. *)
type mpirun_option = { flags : string list; root_only : bool; why : string }

let mpirun_option_table =
  [ { flags = [ "--allow-run-as-root" ]; root_only = true;
      why = "Only when redist runs as root: Open MPI refuses to start as root without it (containers, CI)." };
    { flags = [ "--oversubscribe" ]; root_only = false;
      why = "The mesh's device count, not the machine's core count, sets the number of ranks." };
    { flags = [ "--mca"; "btl"; "self,vader" ]; root_only = false;
      why = "Shared memory only: the ranks never leave the host, and probing network interfaces in a container is slow and noisy." };
    { flags = [ "--mca"; "btl_vader_single_copy_mechanism"; "none" ]; root_only = false;
      why = "Containers often forbid the cross-process memory calls (CMA) that vader would try first." } ]

let mpirun_options () =
  let root = Unix.geteuid () = 0 in
  List.concat_map (fun o -> if o.root_only && not root then [] else o.flags) mpirun_option_table

(* ---- files and commands ---- *)

let write file text =
  try
    let oc = open_out_bin file in
    Fun.protect ~finally:(fun () -> close_out_noerr oc) (fun () -> output_string oc text)
  with Sys_error msg -> fail "writing %s" msg

let read file =
  try
    let ic = open_in_bin file in
    Fun.protect ~finally:(fun () -> close_in_noerr ic) (fun () -> really_input_string ic (in_channel_length ic))
  with Sys_error _ -> ""

let lines text = List.filter (fun l -> String.trim l <> "") (String.split_on_char '\n' text)

(* A signal that ends the run arrived: the child was stopped and the run
   abandoned.  The exit code is the shell's for a command killed by that
   signal (128 + its number). *)
exception Interrupted of { signal : string; exit_code : int }

(* The signals that end a run (a closed terminal or dropped ssh session
   sends SIGHUP, a closed output pipe SIGPIPE), with their names and
   numbers.  Each is passed on to the child as itself, except that
   SIGHUP, SIGQUIT and SIGPIPE go as SIGTERM: mpirun stops its ranks on
   SIGINT and SIGTERM, and SIGQUIT would have every rank dump core. *)
type stop_signal = { signal : int; name : string; number : int; passed_as : int }

let stop_signal_table =
  [ { signal = Sys.sighup; name = "SIGHUP"; number = 1; passed_as = Sys.sigterm };
    { signal = Sys.sigint; name = "SIGINT"; number = 2; passed_as = Sys.sigint };
    { signal = Sys.sigquit; name = "SIGQUIT"; number = 3; passed_as = Sys.sigterm };
    { signal = Sys.sigpipe; name = "SIGPIPE"; number = 13; passed_as = Sys.sigterm };
    { signal = Sys.sigterm; name = "SIGTERM"; number = 15; passed_as = Sys.sigterm } ]

let stop_signals = List.map (fun s -> s.signal) stop_signal_table
let stop_signal_of s = List.find (fun t -> t.signal = s) stop_signal_table

(* Gives [s] the [behavior] and returns the previous one, except that a
   signal ignored by whoever started redist (nohup, a shell's background
   job) stays ignored. *)
let set_unless_ignored s behavior =
  match Sys.signal s behavior with
  | Sys.Signal_ignore -> Sys.set_signal s Sys.Signal_ignore; Sys.Signal_ignore
  | previous -> previous

(* The first signal of [stop_signals]; later ones change nothing (see [command]). *)
let caught_signal = ref None

let check_interrupted () =
  Option.iter
    (fun s ->
      let t = stop_signal_of s in
      raise (Interrupted { signal = t.name; exit_code = 128 + t.number }))
    !caught_signal

(* While [f] runs, [stop_signals] are recorded; [command] passes the first
   on to its child and ends the run once the child has exited. *)
let forwarding_signals f =
  let handle s = if !caught_signal = None then caught_signal := Some s in
  let previous = List.map (fun s -> (s, set_unless_ignored s (Sys.Signal_handle handle))) stop_signals in
  Fun.protect ~finally:(fun () -> List.iter (fun (s, b) -> Sys.set_signal s b) previous) f

(* The child leads a process group of its own (a new session), so the
   signal reaches what it started (cc1plus and as under mpicxx).  Before the
   child has called setsid, to the child alone. *)
let signal_group child s =
  try Unix.kill (-child) s
  with Unix.Unix_error (Unix.ESRCH, _, _) -> ( try Unix.kill child s with Unix.Unix_error _ -> ())

type ending = Exited of int | Timed_out

(* How long a child has, after it was told to stop, before SIGKILL. *)
let grace_s = 10.

(* Runs [prog] in a session of its own with stdin /dev/null (mpirun
   forwards its stdin to rank 0) and stdout and stderr into [log].  Past
   [timeout] seconds it gets SIGTERM; on a caught stop signal, that signal
   as [stop_signal_table] passes it, once: a second one makes mpirun quit
   without stopping its ranks.
   SIGKILL follows [grace_s] later. *)
let command ?timeout ~log prog args =
  check_interrupted ();
  let null = Unix.openfile "/dev/null" [ Unix.O_RDONLY; Unix.O_CLOEXEC ] 0 in
  let out =
    try Unix.openfile log [ Unix.O_WRONLY; Unix.O_CREAT; Unix.O_TRUNC; Unix.O_CLOEXEC ] 0o600
    with Unix.Unix_error (e, _, _) -> Unix.close null; fail "writing %s: %s" log (Unix.error_message e)
  in
  (* Blocked across fork: in the child, until it has given the stop
     signals back their default action, the signal would run redist's
     handler and be lost. *)
  let mask = Unix.sigprocmask Unix.SIG_BLOCK stop_signals in
  let child =
    Fun.protect ~finally:(fun () -> ignore (Unix.sigprocmask Unix.SIG_SETMASK mask); Unix.close null; Unix.close out) (fun () ->
        match Unix.fork () with
        | exception Unix.Unix_error (e, _, _) -> fail "starting %s: %s" prog (Unix.error_message e)
        | 0 -> (
            try
              List.iter (fun s -> ignore (set_unless_ignored s Sys.Signal_default)) stop_signals;
              ignore (Unix.sigprocmask Unix.SIG_SETMASK mask);
              ignore (Unix.setsid ());
              Unix.dup2 null Unix.stdin;
              Unix.dup2 out Unix.stdout;
              Unix.dup2 out Unix.stderr;
              Unix.execvp prog (Array.of_list (prog :: args))
            with _ -> Unix._exit 127)
        | child -> child)
  in
  let deadline = Option.map (fun t -> Unix.gettimeofday () +. float_of_int t) timeout in
  (* Polled: the deadline needs no timer, and a signal is passed on within
     one poll. *)
  let rec wait ~timed_out ~kill_at =
    match Unix.waitpid [ Unix.WNOHANG ] child with
    | 0, _ ->
        let now = Unix.gettimeofday () in
        let stop s = signal_group child s; Some (now +. grace_s) in
        let timed_out, kill_at =
          match (kill_at, !caught_signal, deadline) with
          | None, Some s, _ -> (timed_out, stop (stop_signal_of s).passed_as)
          | None, None, Some d when now >= d -> (true, stop Sys.sigterm)
          | Some k, _, _ when now >= k -> signal_group child Sys.sigkill; (timed_out, Some infinity)
          | _ -> (timed_out, kill_at)
        in
        Unix.sleepf 0.02;
        wait ~timed_out ~kill_at
    | _, Unix.WEXITED code when not timed_out -> Exited code
    | _, (Unix.WSIGNALED _ | Unix.WSTOPPED _) when not timed_out -> Exited 128 (* the shell's "killed" *)
    | _ -> Timed_out
    | exception Unix.Unix_error (Unix.EINTR, _, _) -> wait ~timed_out ~kill_at
  in
  let ending = wait ~timed_out:false ~kill_at:None in
  check_interrupted ();
  ending

(* The compiler's first error line ("file:line:col: error: ..."), else the
   first line that mentions an error, else its first line. *)
let first_error log =
  let ls = List.map String.trim (lines (read log)) in
  let contains sub s =
    let n = String.length sub in
    let rec go i = i + n <= String.length s && (String.sub s i n = sub || go (i + 1)) in
    go 0
  in
  match List.find_opt (contains "error:") ls, List.find_opt (contains "error") ls, ls with
  | Some l, _, _ | None, Some l, _ | None, None, l :: _ -> l
  | None, None, [] -> "no output"

let temp_dir () =
  (* An empty TMPDIR means unset (POSIX), not the current directory. *)
  let base = match Sys.getenv_opt "TMPDIR" with Some d when d <> "" -> d | _ -> "/tmp" in
  let rng = Random.State.make_self_init () in
  let rec attempt tries =
    let d = base / Printf.sprintf "redist-run-%d-%06x" (Unix.getpid ()) (Random.State.bits rng land 0xffffff) in
    match Unix.mkdir d 0o700 with
    | () -> d
    | exception Unix.Unix_error (Unix.EEXIST, _, _) when tries > 1 -> attempt (tries - 1)
    | exception Unix.Unix_error (e, _, _) ->
        F.bad "cannot create a temporary directory in %s (TMPDIR): %s" base (Unix.error_message e)
  in
  attempt 100

let remove_dir d =
  (try Array.iter (fun f -> Sys.remove (d / f)) (Sys.readdir d) with Sys_error _ -> ());
  try Sys.rmdir d with Sys_error _ -> ()

(* ---- the run ---- *)

type outcome = {
  checked : int;              (* target elements compared per run, over ranks *)
  mismatches : int;
  box_disagreements : int;    (* exchange: ranks whose runtime boxes are not the model's *)
  off_bound : int;            (* exchange: ranks that received other than their lower bound *)
  recv_max : int;             (* exchange: what the busiest rank received *)
  guards_intact : bool;
  news : int;
  own_mallocs : int;          (* malloc calls from the executable's own code *)
  mallocs : int;              (* malloc calls from shared libraries (MPI) *)
  median_s : float;
  peak_bytes : int;
  used_ping : int;
  used_pong : int;
  used_scratch : int;
  heap_growth : int;          (* the live heap's peak growth during a run, every caller (MPI too) *)
}

(* The driver's result file: {"error": MSG}, or the fields of [outcome]
   under its names, [guards_intact] a boolean. *)
let outcome_of_json (j : Yojson.Safe.t) =
  let field k = match j with `Assoc kv -> List.assoc_opt k kv | _ -> fail "the driver's result is not a JSON object" in
  (match field "error" with
   | Some (`String msg) -> fail "the runtime refused the run: %s" msg
   | Some _ -> fail "the driver's error is not a string"
   | None -> ());
  let get k = match field k with Some v -> v | None -> fail "the driver's result lacks %s" k in
  let int k = match get k with `Int n -> n | _ -> fail "the driver's %s is not an integer" k in
  { checked = int "checked"; mismatches = int "mismatches"; box_disagreements = int "box_disagreements";
    off_bound = int "off_bound"; recv_max = int "recv_max";
    guards_intact = (match get "guards_intact" with `Bool b -> b | _ -> fail "the driver's guards_intact is not a boolean");
    news = int "news"; own_mallocs = int "own_mallocs"; mallocs = int "mallocs";
    median_s = (match get "median_s" with `Float x -> x | `Int n -> float_of_int n | _ -> fail "the driver's median_s is not a number");
    peak_bytes = int "peak_bytes"; used_ping = int "used_ping"; used_pong = int "used_pong";
    used_scratch = int "used_scratch"; heap_growth = int "heap_growth" }

(* What the driver of an exchange checks against: the Coq model's box of
   every world rank on each side ([pl_box]; none outside the mesh) and the
   elements it must receive ([exchange_recv], the lower bound by
   exchange_recv_spec), as constants of model.hpp in namespace [name]
   (the end-to-end suite puts many in one program). *)
let model_header_of ~name ~world ?peak (p : Problem.t) =
  let src = Problem.source_layout p and tgt = Problem.target_layout p in
  let ndim = List.length p.src in
  let ranks = List.init world Fun.id in
  let ints l = "{" ^ String.concat ", " (List.map string_of_int l) ^ "}" in
  let boxes layout =
    let of_rank w = Redist_core.pl_box layout w in
    ( List.map (fun w -> if of_rank w = None then "false" else "true") ranks,
      List.concat_map (fun w -> match of_rank w with Some b -> List.map fst b | None -> List.init ndim (fun _ -> 0)) ranks,
      List.concat_map (fun w -> match of_rank w with Some b -> List.map snd b | None -> List.init ndim (fun _ -> 0)) ranks )
  in
  let b = Buffer.create 4096 in
  let line fmt = Printf.ksprintf (fun s -> Buffer.add_string b s; Buffer.add_char b '\n') fmt in
  line "// The Coq model of this exchange, per world rank (extracted pl_box and exchange_recv).";
  line "#pragma once";
  line "#include <cstddef>";
  line "namespace %s {" name;
  line "inline constexpr int kWorld = %d;" world;
  Option.iter (line "inline constexpr std::size_t kPeakElems = %d;  // the proven peak local array (xcheck)") peak;
  line "inline constexpr int kRank = %d;" ndim;
  line "inline constexpr std::size_t kGlobalShape[kRank] = %s;" (ints (Redist_core.global_shape p.src));
  List.iter
    (fun (side, short, layout) ->
      let inside, offsets, extents = boxes layout in
      line "inline constexpr bool kIn%s[kWorld] = {%s};" side (String.concat ", " inside);
      line "inline constexpr std::size_t k%sOffset[kWorld * kRank] = %s;" short (ints offsets);
      line "inline constexpr std::size_t k%sExtent[kWorld * kRank] = %s;" short (ints extents))
    [ ("Source", "Src", src); ("Target", "Tgt", tgt) ];
  line "inline constexpr std::size_t kRecvBound[kWorld] = %s;" (ints (List.map (Redist_core.exchange_recv src tgt) ranks));
  line "}  // namespace %s" name;
  Buffer.contents b

let model_header ?(name = "redist_model") (r : Xreport.t) = model_header_of ~name ~world:r.world r.problem

(* What the driver of composed cuts checks against (runtime/testing/verify.hpp's
   RegionProblem): the layouts as written, which verify.hpp applies by
   Part 3's table on its own to find each rank's elements, and the count
   every rank must receive (the extracted region_recv_count, |held_tgt \
   held_src|; with pending axes region_reduce_received, and the pending
   axes, from which verify.hpp forms each group's contributions and their
   combination itself).  Nothing of the region lists is in it. *)
let regions_model_header ?(name = "redist_model") (r : Cutplan.t) =
  let c = r.problem in
  let ndim = List.length c.csrc in
  let b = Buffer.create 4096 in
  let line fmt = Printf.ksprintf (fun s -> Buffer.add_string b s; Buffer.add_char b '\n') fmt in
  let ints l = Emit.list_init (List.map string_of_int l) in
  line "// The composed-cut layouts as written, and the extracted region_recv_count per world rank.";
  line "#pragma once";
  line "namespace %s {" name;
  line "inline constexpr int kWorld = %d;" r.world;
  line "inline constexpr int kRank = %d;" ndim;
  line "inline constexpr std::size_t kGlobalShape[kRank] = %s;" (ints (List.map snd c.csrc));
  line "inline constexpr std::size_t kPeakElems = %d;  // the largest source or target local array" (max r.src_max r.tgt_max);
  let p = c.meshes and s = Problem.source_clayout c and t = Problem.target_clayout c in
  let received =
    if Cutplan.reducing c then Redist_core.region_reduce_received s p.src_pending t p.tgt_pending (Problem.fill p)
    else Redist_core.region_recv_count s t
  in
  line "inline constexpr std::size_t kRecvCount[kWorld] = %s;" (ints (List.init r.world received));
  if Cutplan.reducing c then begin
    line "inline constexpr ::redist::Op kOp = ::redist::Op::%s;" (Dtype.op_name p.op);
    line "inline constexpr ::redist::Dtype kDtype = ::redist::Dtype::%s;" p.dtype.name
  end;
  List.iter
    (fun (side, (env : F.env), ranks, (cty : Redist_core.cty), pending) ->
      let position id = List.length (List.filter (fun (a : F.axis_info) -> a.id < id) env.axes) in
      let cut d k =
        let axes, block = match k with Redist_core.Block axes -> (axes, 0) | Redist_core.Cyclic (axes, bs) -> (axes, bs) in
        Printf.sprintf "{%d, %d, %d, %s}" d block (List.length axes) (ints (List.map position axes))
      in
      let cuts = List.concat (List.mapi (fun d (ks, _) -> List.map (cut d) ks) cty) in
      line "inline constexpr int k%sAxisSizes[] = %s;" side (ints (List.map (fun (a : F.axis_info) -> a.size) env.axes));
      line "inline constexpr int k%sRanks[] = %s;" side (ints ranks);
      line "// {dimension, block (0: ceil block), axes, the axes' positions in the mesh}, outermost first%s."
        (if cuts = [] then " (none: one unused entry, C++ has no empty arrays)" else "");
      line "inline constexpr redist_verify::Cut k%sCuts[] = %s;" side
        (Emit.list_init (if cuts = [] then [ "{0, 0, 0, {}}" ] else cuts));
      line "inline constexpr redist_verify::CutLayout k%s = {%d, k%sAxisSizes, %d, k%sRanks, %d, k%sCuts};" side
        (List.length env.axes) side (List.length ranks) side (List.length cuts) side;
      if Cutplan.reducing c then begin
        (* The pending axes' positions, ascending: the order of a group's members. *)
        let positions = List.sort compare (List.map position pending) in
        line "inline constexpr int k%sPendingCount = %d;" side (List.length positions);
        if positions = [] then line "inline constexpr const int* k%sPending = nullptr;" side
        else line "inline constexpr int k%sPending[] = %s;" side (ints positions)
      end)
    [ ("Source", c.meshes.env, c.meshes.src_ranks, c.csrc, c.meshes.src_pending);
      ("Target", c.meshes.tgt_env, c.meshes.tgt_ranks, c.ctgt, c.meshes.tgt_pending) ];
  line "}  // namespace %s" name;
  Buffer.contents b

(* Integer sums are checked exactly over each target group: integers wrap,
   so every group's contributions add up to the global array in any integer
   type.  The other element types the runtime adds are checked rank by rank
   (sums_model_header). *)

(* What the driver of a pending-sum problem checks against: the generated
   header seen as runtime/testing/verify.hpp's SumsProblem, with the plan's proven
   peak (scheck's), which the header does not carry.  Floating-point
   dtypes are checked bitwise against the sums the host forms in the
   plan's order: the reduction steps' axes in order (the reducing exchange
   adds every pending axis in one), the pending axes left to the target,
   and the axes whose members other than coordinate 0 hold the identity (the
   plan's add_pending steps of sum or prod; for the reducing exchange, the
   target's pending axes).  Every operation but an integer sum is checked
   that way (integers exactly, whatever the order). *)
let exact_group_sums (p : Problem.t) = Dtype.sums_exactly p.dtype && p.op = Dtype.Sum

let sums_model_header ?(name = "redist_model") ?(header = "problem") (r : Sumplan.t) =
  let p = r.problem in
  let kind = match r.plan with Redist_core.SumByExchange -> "EXCHANGE" | Redist_core.SumByCollectives _ -> "COLLECTIVES" in
  let naxes = List.length p.env.F.axes in
  let stage_of, zero_axes =
    match r.plan with
    | Redist_core.SumByExchange -> ((fun a -> if List.mem a p.src_pending then 0 else -2), p.tgt_pending)
    | Redist_core.SumByCollectives (pre, _, _, post) ->
        let reduced = List.map Redist_core.sum_step_axis pre in
        let rec position a i = function [] -> -1 | b :: rest -> if a = b then i else position a (i + 1) rest in
        ( (fun a -> if List.mem a p.src_pending then position a 0 reduced else -2),
          if Dtype.every_member_keeps p.op then []
          else List.filter_map (function Redist_core.AddPending a -> Some a | _ -> None) post )
  in
  let stages = List.fold_left max (-1) (List.init naxes stage_of) + 1 in
  let ints l = Emit.list_init (List.map string_of_int l) in
  String.concat "\n"
    [ "// The pending-sum problem as the driver checks it (runtime/testing/verify.hpp), with";
      "// the plan's proven peak local array in elements (extracted scheck) and, for";
      "// floating-point dtypes, the order of its sums.";
      "#pragma once";
      Printf.sprintf "namespace %s {" name;
      Printf.sprintf "inline constexpr int kStageOf[%d] = %s;" naxes (ints (List.init naxes stage_of));
      Printf.sprintf "inline constexpr int kZeroAxes[%d] = %s;" (max 1 (List.length zero_axes))
        (ints (if zero_axes = [] then [ 0 ] else zero_axes));
      "inline redist_verify::SumsProblem sums_problem() {";
      Printf.sprintf "  redist_verify::SumsProblem p = REDIST_VERIFY_SUMS_%s(%s, %d);" kind header r.peak;
      Printf.sprintf "  p.floats = %b;" (not (exact_group_sums p));
      Printf.sprintf "  p.dtype = ::redist::Dtype::%s;" p.dtype.name;
      Printf.sprintf "  p.op = ::redist::Op::%s;" (Dtype.op_name p.op);
      "  p.stage_of = kStageOf;";
      Printf.sprintf "  p.stages = %d;" stages;
      "  p.zero_axes = kZeroAxes;";
      Printf.sprintf "  p.zero_axes_count = %d;" (List.length zero_axes);
      "  return p;";
      "}";
      Printf.sprintf "}  // namespace %s" name;
      "" ]

(* Which checks the driver compiles in, with the model header they read. *)
type driver =
  | Collectives_driver
  | Exchange_driver of string
  | Hybrid_driver of string
  | Sums_driver of string
  | Regions_driver of string * bool  (* the model, and whether the exchange reduces *)
  | In_place_driver of string

(* Header, driver, build, mpirun; the files stay in [dir]. *)
let execute ~dir ~header ~driver ~np ~repeat ~timeout =
  if not (on_path "mpicxx") then fail "mpicxx is not on PATH (install libopenmpi-dev: make deps)";
  if not (on_path "mpirun") then fail "mpirun is not on PATH (install openmpi-bin: make deps)";
  let prefix = locate_prefix () in
  write (dir / "problem.hpp") header;
  write (dir / "verify.hpp") Embedded.verify_hpp;
  write (dir / "run_main.cpp") Embedded.run_main_cpp;
  let driver_flags =
    match driver with
    | Collectives_driver -> []
    | Exchange_driver model -> write (dir / "model.hpp") model; [ "-DREDIST_RUN_EXCHANGE" ]
    | Hybrid_driver model -> write (dir / "model.hpp") model; [ "-DREDIST_RUN_HYBRID" ]
    | Sums_driver model -> write (dir / "model.hpp") model; [ "-DREDIST_RUN_SUMS" ]
    | Regions_driver (model, reducing) ->
        write (dir / "model.hpp") model;
        "-DREDIST_RUN_REGIONS" :: (if reducing then [ "-DREDIST_RUN_REDUCING" ] else [])
    | In_place_driver model -> write (dir / "model.hpp") model; [ "-DREDIST_RUN_IN_PLACE" ]
  in
  let exe = dir / "driver" and log = dir / "compile.log" in
  let args =
    [ "-std=c++17"; "-O2" ] @ driver_flags @ [ "-I" ^ (prefix / "include"); "-I" ^ dir; dir / "run_main.cpp" ]
    @ libraries prefix @ [ "-o"; exe ]
  in
  if command ~log "mpicxx" args <> Exited 0 then
    fail "compiling the driver against %s failed: %s (--work-dir keeps the full log)" prefix (first_error log);
  let out = dir / "run.out" and result = dir / "result.json" in
  if Sys.file_exists result then Sys.remove result;
  let ending =
    command ~timeout ~log:out "mpirun" (mpirun_options () @ [ "-np"; string_of_int np; exe; string_of_int repeat; result ])
  in
  match (Sys.file_exists result, ending) with
  | true, _ -> (
      match Yojson.Safe.from_file result with
      | j -> outcome_of_json j
      | exception Yojson.Json_error msg -> fail "the driver's result %s is not JSON: %s" result msg)
  | false, Timed_out -> fail "mpirun -np %d timed out after %d s" np timeout
  | false, Exited rc ->
      let why = match lines (read out) with l :: _ -> String.trim l | [] -> "no output" in
      fail "mpirun -np %d failed (exit %d): %s" np rc why

(* A plan without pending sums, one with them (Sumplan), or the region
   exchange of composed cuts (Cutplan). *)
type planned = Plain of Xreport.plan | Sums of Sumplan.t | Regions of Cutplan.t

type result = { plan : planned; ranks : int; repeat : int; o : outcome; verified : bool }

let problem_of = function
  | Plain (Xreport.Collectives r) -> r.Report.problem
  | Plain (Xreport.Exchange r) -> r.Xreport.problem
  | Plain (Xreport.Hybrid h) -> h.whole
  | Sums r -> r.Sumplan.problem
  | Regions r -> r.Cutplan.problem.meshes

(* The proven bound on the largest local array, in elements: max(|src|,
   |tgt|) for the collectives (plan_peak_bound), the largest source or
   target box for the exchange (plan_with_peak), scheck's peak for pending
   sums. *)
let proven_peak_elems = function
  | Plain (Xreport.Collectives r) -> max r.Report.src_elems r.tgt_elems
  | Plain (Xreport.Exchange r) -> r.Xreport.peak
  | Plain (Xreport.Hybrid h) -> (Xreport.figures h).h_peak
  | Sums r -> r.Sumplan.peak
  | Regions r -> max r.Cutplan.src_max r.tgt_max

let global_elems = function
  | Plain (Xreport.Collectives r) -> r.Report.global_elems
  | Plain (Xreport.Exchange r) -> r.Xreport.global_elems
  | Plain (Xreport.Hybrid h) -> List.fold_left ( * ) 1 (Redist_core.global_shape h.whole.src)
  | Sums r -> List.fold_left ( * ) 1 (Redist_core.global_shape r.Sumplan.problem.src)
  | Regions r -> r.Cutplan.global_elems

(* The workspace the header asks for: the exchange runs on the local
   arrays alone. *)
let workspace_bytes = function
  | Plain (Xreport.Collectives r) -> Redist_core.workspace_bytes (Lazy.force r.calls)
  | Plain (Xreport.Exchange _) | Regions _ -> 0
  | Plain (Xreport.Hybrid h) -> (Xreport.figures h).h_workspace_bytes
  | Sums r -> r.Sumplan.workspace_bytes


let plan_of (p : Problem.t) ~cost =
  if Problem.has_pending p then begin
    let r, _ = Sumplan.choose_costed cost p in
    (Sums r, Cxx.print (Emit_sums.header ~name:"problem" r), Sums_driver (sums_model_header r))
  end
  else
    let plan, guarantees, _ = Planning.choose_costed cost p in
    match plan with
    | Xreport.Collectives r ->
        (Plain plan, Cxx.print (Emit.collectives_header ~name:"problem" ~backend:Emit.Mpi r ~guarantees), Collectives_driver)
    | Xreport.Exchange r ->
        (Plain plan, Cxx.print (Emit.exchange_header ~name:"problem" ~backend:Emit.Mpi r ~guarantees), Exchange_driver (model_header r))
    | Xreport.Hybrid h ->
        ( Plain plan, Cxx.print (Emit.hybrid_header ~name:"problem" ~backend:Emit.Mpi h ~guarantees),
          Hybrid_driver (model_header_of ~name:"redist_model" ~world:(Xreport.figures h).h_world ~peak:(Xreport.figures h).h_peak h.whole) )

(* --np (default: the world), --repeat, --timeout and --work-dir checked,
   then the header compiled with its driver and run: every problem's path. *)
let launch ~world ~np ~repeat ~timeout ~work_dir ~header ~driver =
  let np =
    match np with
    | Some n ->
        if n < 1 || n > max_procs then F.bad "--np: %d processes; redist run starts 1 to %d" n max_procs;
        n
    | None ->
        if world > max_procs then
          F.bad "the world has %d ranks (the largest rank of either mesh plus one); redist run starts at most %d processes"
            world max_procs;
        world
  in
  if repeat < 1 || repeat > 1000 then F.bad "--repeat: %d; expected 1 to 1000" repeat;
  if timeout < 1 then F.bad "--timeout: %d; expected at least 1 second" timeout;
  (match work_dir with
   | Some d -> (
       try if not (Sys.is_directory d) then F.bad "--work-dir: %s is not a directory" d
       with Sys_error _ -> F.bad "--work-dir: %s does not exist" d)
   | None -> ());
  let o =
    forwarding_signals (fun () ->
        match work_dir with
        | Some dir -> execute ~dir ~header ~driver ~np ~repeat ~timeout
        | None ->
            let dir = temp_dir () in
            Fun.protect ~finally:(fun () -> remove_dir dir) (fun () -> execute ~dir ~header ~driver ~np ~repeat ~timeout))
  in
  (np, o)

let result_of plan ~np ~repeat (o : outcome) =
  let bound = proven_peak_elems plan * (problem_of plan).elem_bytes in
  let verified =
    o.mismatches = 0 && o.box_disagreements = 0 && o.off_bound = 0 && o.guards_intact && o.news = 0
    && o.own_mallocs = 0 && o.peak_bytes <= bound
  in
  { plan; ranks = np; repeat; o; verified }

let run (p : Problem.t) ~cost ~np ~repeat ~timeout ~work_dir =
  Problem.check_runtime_limits p;
  let plan, header, driver = plan_of p ~cost in
  let np, o = launch ~world:(Problem.world p) ~np ~repeat ~timeout ~work_dir ~header ~driver in
  result_of plan ~np ~repeat o

(* Composed cuts: the header `gen` writes (the extracted region lists as
   tables), checked against the layouts as written. *)
let run_composed (c : Problem.composed) ~np ~repeat ~timeout ~work_dir =
  Problem.check_runtime_limits c.meshes;
  let r = Cutplan.make c in
  let header = Cxx.print (Emit_regions.header ~name:"problem" c) in
  let np, o =
    launch ~world:r.world ~np ~repeat ~timeout ~work_dir ~header ~driver:(Regions_driver (regions_model_header r, Cutplan.reducing c))
  in
  result_of (Regions r) ~np ~repeat o

(* ---- printing ---- *)

let text (x : result) =
  let o = x.o in
  let p = problem_of x.plan in
  let e = p.elem_bytes in
  let proven_peak = proven_peak_elems x.plan * e in
  let b = Buffer.create 1024 in
  let line fmt = Printf.ksprintf (fun s -> Buffer.add_string b s; Buffer.add_char b '\n') fmt in
  let source, target =
    match x.plan with
    | Regions r -> (Cutplan.show_source r.problem, Cutplan.show_target r.problem)
    | Plain _ | Sums _ ->
        (Sumplan.show_pty p.op p.env (p.src, p.src_pending), Sumplan.show_pty p.op p.tgt_env (p.tgt, p.tgt_pending))
  in
  line "redist run: %s, %s -> %s, %s, %d ranks under mpirun" (Problem.show_meshes p) source target p.dtype.name x.ranks;
  (match x.plan with
   | Plain (Xreport.Collectives r) ->
       line "plan: %s"
         (if r.steps = [] then "(no steps: a copy)"
          else String.concat "; " (List.map (fun (s : Report.step) -> F.show_collective r.env s.coll) r.steps))
   | Plain (Xreport.Exchange _) -> line "plan: exchange (one direct exchange, strategy %s)" (Problem.strategy_name p.strategy)
   | Plain (Xreport.Hybrid h) -> line "plan: %s" (Costreport.describe p (Xreport.splan (Xreport.Hybrid h)))
   | Sums r ->
       line "plan: %s"
         (match r.plan with
          | Redist_core.SumByExchange -> "reducing exchange"
          | Redist_core.SumByCollectives _ when r.steps = [] -> "(no steps: a copy)"
          | Redist_core.SumByCollectives _ -> String.concat "; " (List.map (fun (s : Sumplan.step) -> s.text) r.steps))
   | Regions r when Cutplan.reducing r.problem ->
       line "plan: reducing region exchange (composed cuts with pending %s: the extracted reduce_sends and reduce_recvs of every rank)"
         (Dtype.op_name p.op)
   | Regions _ -> line "plan: region exchange (composed cuts: the extracted region messages of every rank)");
  if x.verified then
    line "verified: every element of every rank's target %s %s (%d elements checked, 0 mismatches)"
      (match x.plan with Regions _ -> "local array" | Plain _ | Sums _ -> "box")
      (match x.plan with
       | Sums r when exact_group_sums r.Sumplan.problem -> "sums, over its target group, to the global array"
       | Sums r ->
           Printf.sprintf "is, bitwise, the %s of its contributions combined in the plan's order"
             (Dtype.op_name r.Sumplan.problem.op)
       | Regions r when Cutplan.reducing r.problem ->
           Printf.sprintf "is, bitwise, the %s of its group's contributions combined in ascending source-mesh rank"
             (Dtype.op_name p.op)
       | Plain _ | Regions _ -> "is correct")
      o.checked
  else begin
    if o.box_disagreements > 0 then
      line "FAILED: on %d ranks the runtime's source or target %s is not the model's; nothing was run" o.box_disagreements
        (match x.plan with Regions _ -> "local array" | Plain _ | Sums _ -> "box");
    if o.mismatches > 0 then line "FAILED: %d mismatched elements (%d checked per run)" o.mismatches o.checked;
    if o.off_bound > 0 then
      line "FAILED: %d ranks received other than their proven %s" o.off_bound
        (match x.plan with Regions r when Cutplan.reducing r.problem -> "count" | _ -> "lower bound");
    if not o.guards_intact then line "FAILED: the run wrote outside its workspace or destination (guard bytes changed)";
    if o.news > 0 || o.own_mallocs > 0 then
      line "FAILED: run() allocated: %d operator new, %d malloc calls" o.news o.own_mallocs;
    if o.peak_bytes > proven_peak then line "FAILED: measured peak above the proven bound"
  end;
  (match x.plan with
   | Plain (Xreport.Exchange r) when o.box_disagreements = 0 ->
       line "received: the busiest rank %s; proven lower bound %d; %s" (Report.plural o.recv_max "element") r.lb_max
         (if o.off_bound = 0 then "every rank received exactly its lower bound"
          else Printf.sprintf "%d ranks did not" o.off_bound)
   | Regions r when o.box_disagreements = 0 && Cutplan.reducing r.problem ->
       line "received: the busiest rank %s; proven count %d (region_reduce_received: group size - 1 per target element, one more where its source lacks it); %s"
         (Report.plural o.recv_max "element") r.recv_busiest
         (if o.off_bound = 0 then "every rank received exactly its count" else Printf.sprintf "%d ranks did not" o.off_bound)
   | Regions r when o.box_disagreements = 0 ->
       line "received: the busiest rank %s; proven count %d (region_recv_count: target elements not already held, the lower bound); %s"
         (Report.plural o.recv_max "element") r.recv_busiest
         (if o.off_bound = 0 then "every rank received exactly its count" else Printf.sprintf "%d ranks did not" o.off_bound)
   | _ -> ());
  line "time: %.6f s (median of %d runs, slowest rank)" o.median_s x.repeat;
  let guards = if o.guards_intact then "intact" else "CHANGED" in
  let bound_is, workspace =
    match x.plan with
    | Plain (Xreport.Collectives _) ->
        ( "max(|src|, |tgt|) =",
          Printf.sprintf "%d B allocated (kWorkspaceBytes), used: ping %d B, pong %d B, scratch %d B" (workspace_bytes x.plan)
            o.used_ping o.used_pong o.used_scratch )
    | Plain (Xreport.Exchange _) -> ("the largest source or target box,", "none (the exchange moves data between the local arrays)")
    | Regions r when Cutplan.reducing r.problem ->
        ("the largest source or target local array,", "none given (the exchange owns its staging of the contributions)")
    | Regions _ -> ("the largest source or target local array,", "none (the exchange moves data between the local arrays)")
    | Plain (Xreport.Hybrid _) ->
        ( "the larger part's peak,",
          Printf.sprintf "%d B allocated (kWorkspaceBytes), used: intermediate %d B, then %d B for the parts"
            (workspace_bytes x.plan) o.used_ping o.used_scratch )
    | Sums _ ->
        ( "scheck's peak,",
          Printf.sprintf "%d B (kWorkspaceBytes), %d B used on the busiest rank" (workspace_bytes x.plan) o.used_scratch )
  in
  line "peak local array: %d B measured; proven bound %s %d B; gather-everything plan: %d B" o.peak_bytes bound_is
    proven_peak (global_elems x.plan * e);
  line "workspace: %s; guard bytes %s" workspace guards;
  line "allocations in run(): %d operator new and %d malloc calls from the runtime and generated code; %d malloc calls inside MPI"
    o.news o.own_mallocs o.mallocs;
  Buffer.contents b

let json (x : result) =
  let o = x.o in
  let p = problem_of x.plan in
  let e = p.elem_bytes in
  (* A pending-sum plan's fields carry its workspace (and live bytes). *)
  let plan_fields =
    match x.plan with
    | Plain plan -> Json.problem p @ Json.any_plan plan @ [ ("workspace_bytes", `Int (workspace_bytes x.plan)) ]
    | Sums r -> Sumplan.json_fields r
    | Regions r -> Cutplan.problem_fields r @ [ ("workspace_bytes", `Int (workspace_bytes x.plan)) ]
  in
  let exchange_fields =
    match x.plan with
    | Plain (Xreport.Collectives _ | Xreport.Hybrid _) | Sums _ -> []
    (* the reducing region exchange's count is not a lower bound *)
    | Regions r when Cutplan.reducing r.problem ->
        [ ("box_disagreements", `Int o.box_disagreements); ("recv_elems_max_measured", `Int o.recv_max) ]
    | Plain (Xreport.Exchange { lb_max; _ }) | Regions { recv_busiest = lb_max; _ } ->
        [ ("box_disagreements", `Int o.box_disagreements); ("recv_elems_max_measured", `Int o.recv_max);
          ("lower_bound_recv_max", `Int lb_max); ("ranks_off_lower_bound", `Int o.off_bound) ]
  in
  Json.document ~command:"run"
    (plan_fields
    @ [ ("verified", `Bool x.verified); ("ranks", `Int x.ranks);
        ("elements_checked", `Int o.checked); ("mismatches", `Int o.mismatches);
        ("median_s", `Float o.median_s); ("repeat", `Int x.repeat); ("peak_bytes", `Int o.peak_bytes);
        ("proven_peak_bytes", `Int (proven_peak_elems x.plan * e)); ("gather_everything_bytes", `Int (global_elems x.plan * e));
        ("used_ping_bytes", `Int o.used_ping);
        ("used_pong_bytes", `Int o.used_pong); ("used_scratch_bytes", `Int o.used_scratch);
        ("guards_intact", `Bool o.guards_intact); ("operator_new_calls", `Int o.news);
        ("own_malloc_calls", `Int o.own_mallocs); ("mpi_malloc_calls", `Int o.mallocs) ]
    @ exchange_fields)

(* ---- in place ---- *)

(* `run --in-place`: the header of `gen --in-place` on every rank, each
   rank's buffer of the model's size holding its source box at offset 0;
   afterwards its prefix must be the target box on every element, within
   the proven live bytes (buffer + staging). *)
type in_place_result = { in_place : Inplaceplan.t; ip_ranks : int; ip_repeat : int; ip_o : outcome; ip_verified : bool }

let run_in_place (p : Problem.t) ~cost ~np ~repeat ~timeout ~work_dir =
  Problem.check_runtime_limits p;
  let r = Inplaceplan.plan cost p in
  let header = Cxx.print (Emit_inplace.header ~name:"problem" r) in
  let np, o =
    launch ~world:(Problem.world p) ~header ~driver:(In_place_driver (model_header r.exchange)) ~np ~repeat ~timeout ~work_dir
  in
  let verified =
    o.mismatches = 0 && o.box_disagreements = 0 && o.guards_intact && o.news = 0 && o.own_mallocs = 0
    && o.peak_bytes <= Inplaceplan.live_bytes r
  in
  { in_place = r; ip_ranks = np; ip_repeat = repeat; ip_o = o; ip_verified = verified }

let text_in_place (x : in_place_result) =
  let o = x.ip_o and r = x.in_place in
  let p = r.exchange.problem in
  let bytes elems = Bounds.mul elems p.elem_bytes in
  let live = Inplaceplan.live_bytes r in
  let b = Buffer.create 1024 in
  let line fmt = Printf.ksprintf (fun s -> Buffer.add_string b s; Buffer.add_char b '\n') fmt in
  line "redist run: %s, %s -> %s, %s, %d ranks under mpirun" (Problem.show_meshes p) (F.show_ty p.env p.src)
    (F.show_ty p.tgt_env p.tgt) p.dtype.name x.ip_ranks;
  line "plan: exchange in place, %s (%d messages, %d local copies); staging %s (%d B) per rank%s"
    (Report.plural r.rounds "round") r.messages r.local_copies (Report.plural r.staging_elems "element")
    (bytes r.staging_elems)
    (match r.budget with Some budget -> Printf.sprintf ", within --memory-budget %d" budget | None -> "");
  if x.ip_verified then
    line "verified: every element of every rank's target box is correct in its buffer (%d elements checked, 0 mismatches)"
      o.checked
  else begin
    if o.box_disagreements > 0 then
      line "FAILED: on %d ranks the runtime's buffer is not the model's max(|src box|, |tgt box|); nothing was run"
        o.box_disagreements;
    if o.mismatches > 0 then line "FAILED: %d mismatched elements (%d checked per run)" o.mismatches o.checked;
    if not o.guards_intact then line "FAILED: the run wrote outside its buffer or staging (guard bytes changed)";
    if o.news > 0 || o.own_mallocs > 0 then
      line "FAILED: run() allocated: %d operator new, %d malloc calls" o.news o.own_mallocs;
    if o.peak_bytes > live then line "FAILED: measured live bytes above the proven bound"
  end;
  line "time: %.6f s (median of %d runs, slowest rank)" o.median_s x.ip_repeat;
  line "live bytes: %d B measured (buffer + staging used, busiest rank; staging used %d B); proven at most %d B (buffer + staging); the exchange out of place: %d B"
    o.peak_bytes o.used_scratch live r.exchange.live_bytes;
  line "heap growth during a run: %d B (the live heap's peak growth, MPI's allocations included); %d operator new and %d malloc calls from the runtime and generated code, %d malloc calls inside MPI"
    o.heap_growth o.news o.own_mallocs o.mallocs;
  line "guard bytes %s" (if o.guards_intact then "intact" else "CHANGED");
  Buffer.contents b

(* run's fields of the other plans, with the in-place figures in them: the
   peak is the live bytes measured (buffer + staging used) against the proven
   buffer + staging, the workspace is the staging. *)
let json_in_place (x : in_place_result) =
  let o = x.ip_o and r = x.in_place in
  let p = r.exchange.problem in
  Json.document ~command:"run"
    (Json.problem p @ Json.any_plan (Xreport.Exchange r.exchange)
    @ [ Inplaceplan.in_place_field r; ("workspace_bytes", `Int (Bounds.mul r.staging_elems p.elem_bytes));
        ("verified", `Bool x.ip_verified); ("ranks", `Int x.ip_ranks); ("elements_checked", `Int o.checked);
        ("mismatches", `Int o.mismatches); ("box_disagreements", `Int o.box_disagreements);
        ("median_s", `Float o.median_s); ("repeat", `Int x.ip_repeat); ("peak_bytes", `Int o.peak_bytes);
        ("proven_peak_bytes", `Int (Inplaceplan.live_bytes r));
        ("gather_everything_bytes", `Int (Bounds.mul r.exchange.global_elems p.elem_bytes));
        ("used_ping_bytes", `Int 0); ("used_pong_bytes", `Int 0); ("used_scratch_bytes", `Int o.used_scratch);
        ("heap_growth_bytes", `Int o.heap_growth); ("guards_intact", `Bool o.guards_intact);
        ("operator_new_calls", `Int o.news); ("own_malloc_calls", `Int o.own_mallocs);
        ("mpi_malloc_calls", `Int o.mallocs) ])
