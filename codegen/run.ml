(* `redist run`: generates the header for a problem (as `gen` does), compiles
   it with the driver codegen/run_main.cpp and the checks of
   codegen/verify.hpp (both embedded in the binary) against the MPI runtime,
   runs it under mpirun, and reports whether every rank's target box came
   out right, the time, and the measured memory next to the proven bound. *)

module F = Front

(* The toolchain or mpirun failed, or the runtime refused the run: exit 4. *)
exception Tool_error of string

let fail fmt = Printf.ksprintf (fun s -> raise (Tool_error s)) fmt

let max_procs = 256

(* ---- where the runtime is ---- *)

type runtime = { include_dir : string; library : string; build : (string * string) option }
(* build: (repository root, make target) when the library may need building *)

let ( / ) = Filename.concat
let is_repo d = Sys.file_exists (d / "runtime" / "include" / "redist" / "mpi.hpp")

let rec ancestors d =
  let parent = Filename.dirname d in
  if parent = d then [ d ] else d :: ancestors parent

let of_repo root =
  { include_dir = root / "runtime" / "include"; library = root / "_build" / "runtime" / "libredist_mpi.a";
    build = Some (root, "runtime") }

(* REDIST_ROOT (a source tree) first; then a source tree above the
   executable (it lives in _build/ after `make build`) or above the current
   directory; then an installed runtime next to an installed binary
   (PREFIX/bin/redist with PREFIX/include/redist and PREFIX/lib). *)
let locate_runtime () =
  match Sys.getenv_opt "REDIST_ROOT" with
  | Some root when root <> "" ->
      if is_repo root then of_repo root
      else fail "REDIST_ROOT=%s does not contain runtime/include/redist/mpi.hpp" root
  | _ -> (
      let exe_dir = Filename.dirname Sys.executable_name in
      match List.find_opt is_repo (ancestors exe_dir @ ancestors (Sys.getcwd ())) with
      | Some root -> of_repo root
      | None ->
          let prefix = Filename.dirname exe_dir in
          let lib = List.find_opt Sys.file_exists [ prefix / "lib" / "libredist_mpi.a"; prefix / "lib64" / "libredist_mpi.a" ] in
          match lib with
          | Some library when Sys.file_exists (prefix / "include" / "redist" / "mpi.hpp") ->
              { include_dir = prefix / "include"; library; build = None }
          | _ -> fail "cannot find the redist runtime: set REDIST_ROOT to the redist source tree")

let on_path prog =
  let dirs = String.split_on_char ':' (Option.value (Sys.getenv_opt "PATH") ~default:"") in
  List.exists (fun d -> d <> "" && Sys.file_exists (d / prog)) dirs

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

(* stdin is /dev/null: mpirun forwards its stdin to rank 0. *)
let command ?stdout ?stderr prog args =
  Sys.command (Filename.quote_command prog ~stdin:"/dev/null" ?stdout ?stderr args)

(* The first line of a compiler log that says "error", else its first line. *)
let first_error log =
  let ls = lines (read log) in
  let contains s sub =
    let n = String.length sub in
    let rec go i = i + n <= String.length s && (String.sub s i n = sub || go (i + 1)) in
    go 0
  in
  match List.find_opt (fun l -> contains l "error") ls with
  | Some l -> String.trim l
  | None -> ( match ls with l :: _ -> String.trim l | [] -> "no output")

let mtime f = try (Unix.stat f).Unix.st_mtime with Unix.Unix_error _ -> 0.

(* Newest source of the runtime in a source tree: a library older than it
   was built from other headers, and linking it would break at run time. *)
let newest_source root =
  let dirs = [ root / "runtime" / "include" / "redist"; root / "runtime" / "src" ] in
  List.fold_left
    (fun acc d ->
      match Sys.readdir d with
      | files -> Array.fold_left (fun acc f -> max acc (mtime (d / f))) acc files
      | exception Sys_error _ -> acc)
    0. dirs

let ensure_library rt dir =
  let stale = match rt.build with Some (root, _) -> mtime rt.library < newest_source root | None -> false in
  if stale || not (Sys.file_exists rt.library) then
    match rt.build with
    | None -> fail "the runtime library %s is missing" rt.library
    | Some (root, target) ->
        let log = dir / "make-runtime.log" in
        if command ~stdout:log ~stderr:log "make" [ "-C"; root; target ] <> 0 || not (Sys.file_exists rt.library)
        then fail "building the runtime (make -C %s %s) failed: %s" root target (first_error log)

let temp_dir () =
  let f = Filename.temp_file "redist-run" "" in
  Sys.remove f;
  Sys.mkdir f 0o700;
  f

let remove_dir d =
  (try Array.iter (fun f -> Sys.remove (d / f)) (Sys.readdir d) with Sys_error _ -> ());
  try Sys.rmdir d with Sys_error _ -> ()

(* ---- the run ---- *)

type outcome = {
  mismatches : int;
  guards_intact : bool;
  news : int;
  own_mallocs : int;          (* malloc calls from the executable's own code *)
  mallocs : int;              (* malloc calls from shared libraries (MPI) *)
  median_s : float;
  peak_bytes : int;
  used_ping : int;
  used_pong : int;
  used_scratch : int;
}

(* The driver's line: "redist-run: error MSG" or "redist-run: K=V ...". *)
let parse_result line =
  let body = String.sub line 12 (String.length line - 12) in
  if String.length body >= 6 && String.sub body 0 6 = "error " then
    fail "the runtime refused the run: %s" (String.sub body 6 (String.length body - 6));
  let kv =
    List.filter_map
      (fun w -> match String.index_opt w '=' with
        | Some k -> Some (String.sub w 0 k, String.sub w (k + 1) (String.length w - k - 1))
        | None -> None)
      (String.split_on_char ' ' body)
  in
  let get k = match List.assoc_opt k kv with Some v -> v | None -> fail "the driver's result lacks %s" k in
  let int k = match int_of_string_opt (get k) with Some n -> n | None -> fail "the driver's %s is not a number" k in
  { mismatches = int "mismatches"; guards_intact = int "guards" = 1; news = int "news"; own_mallocs = int "own_mallocs"; mallocs = int "mallocs";
    median_s = (match float_of_string_opt (get "median_s") with Some x -> x | None -> fail "bad median_s");
    peak_bytes = int "peak_bytes"; used_ping = int "used_ping"; used_pong = int "used_pong";
    used_scratch = int "used_scratch" }

let prefix = "redist-run: "

let is_result l = String.length l >= String.length prefix && String.sub l 0 (String.length prefix) = prefix

(* Header, driver, build, mpirun; the files stay in [dir]. *)
let execute ~dir ~header ~np ~repeat ~timeout =
  if not (on_path "mpicxx") then fail "mpicxx is not on PATH (install libopenmpi-dev: make deps)";
  if not (on_path "mpirun") then fail "mpirun is not on PATH (install openmpi-bin: make deps)";
  let rt = locate_runtime () in
  ensure_library rt dir;
  write (dir / "problem.hpp") header;
  write (dir / "verify.hpp") Embedded.verify_hpp;
  write (dir / "run_main.cpp") Embedded.run_main_cpp;
  let exe = dir / "driver" and log = dir / "compile.log" in
  let args = [ "-std=c++17"; "-O2"; "-I" ^ rt.include_dir; "-I" ^ dir; dir / "run_main.cpp"; rt.library; "-o"; exe ] in
  if command ~stdout:log ~stderr:log "mpicxx" args <> 0 then fail "compiling the driver failed: %s" (first_error log);
  let out = dir / "run.out" and err = dir / "run.err" in
  let mpirun =
    [ string_of_int timeout; "mpirun"; "--allow-run-as-root"; "--oversubscribe"; "--mca"; "btl"; "self,vader";
      "--mca"; "btl_vader_single_copy_mechanism"; "none"; "-np"; string_of_int np; exe; string_of_int repeat ]
  in
  let rc = command ~stdout:out ~stderr:err "timeout" ("--kill-after=10" :: mpirun) in
  match List.find_opt is_result (lines (read out)) with
  | Some line -> parse_result (String.trim line)
  | None when rc = 124 || rc = 137 -> fail "mpirun -np %d timed out after %d s" np timeout
  | None ->
      let why = match lines (read err) @ lines (read out) with l :: _ -> String.trim l | [] -> "no output" in
      fail "mpirun -np %d failed (exit %d): %s" np rc why

type result = { report : Report.t; ranks : int; repeat : int; o : outcome; verified : bool }

let run (p : Problem.t) ~np ~repeat ~timeout ~work_dir =
  let r, guarantees = Planning.plan p in
  let devices = Redist_core.mesh_size (F.core_mesh p.env) in
  let np = Option.value np ~default:devices in
  if np < 1 || np > max_procs then F.bad "--np: %d processes; redist run starts 1 to %d" np max_procs;
  if repeat < 1 || repeat > 1000 then F.bad "--repeat: %d; expected 1 to 1000" repeat;
  if timeout < 1 then F.bad "--timeout: %d; expected at least 1 second" timeout;
  if List.length p.src > Bounds.max_rank_gen || List.length p.env.axes > Bounds.max_rank_gen then
    F.bad "the runtime handles at most %d dimensions and %d mesh axes" Bounds.max_rank_gen Bounds.max_rank_gen;
  let header = Emit.render ~name:"problem" ~backend:Emit.Mpi r ~guarantees in
  let dir, keep =
    match work_dir with
    | Some d ->
        (try if not (Sys.is_directory d) then F.bad "--work-dir: %s is not a directory" d
         with Sys_error _ -> F.bad "--work-dir: %s does not exist" d);
        (d, true)
    | None -> (temp_dir (), false)
  in
  let o =
    Fun.protect ~finally:(fun () -> if not keep then remove_dir dir) (fun () -> execute ~dir ~header ~np ~repeat ~timeout)
  in
  let bound = max r.src_elems r.tgt_elems * p.elem_bytes in
  let verified = o.mismatches = 0 && o.guards_intact && o.news = 0 && o.own_mallocs = 0 && o.peak_bytes <= bound in
  { report = r; ranks = np; repeat; o; verified }

(* ---- printing ---- *)

let text (x : result) =
  let r = x.report and o = x.o in
  let p = r.problem in
  let e = p.elem_bytes in
  let b = Buffer.create 1024 in
  let line fmt = Printf.ksprintf (fun s -> Buffer.add_string b s; Buffer.add_char b '\n') fmt in
  line "redist run: mesh %s, %s -> %s, %s, %d ranks under mpirun" (F.show_mesh p.env) (F.show_ty p.env p.src)
    (F.show_ty p.env p.tgt) p.dtype x.ranks;
  line "plan: %s"
    (if r.steps = [] then "(no steps: a copy)"
     else String.concat "; " (List.map (fun (s : Report.step) -> F.show_collective r.env s.coll) r.steps));
  if x.verified then
    line "verified: every element of every rank's target box is correct (%d elements checked, 0 mismatches)"
      (x.ranks * r.tgt_elems)
  else begin
    line "FAILED: %d mismatched elements of %d" o.mismatches (x.ranks * r.tgt_elems);
    if not o.guards_intact then line "FAILED: the run wrote outside its workspace or destination (guard bytes changed)";
    if o.news > 0 || o.own_mallocs > 0 then
      line "FAILED: run() allocated: %d operator new, %d malloc calls" o.news o.own_mallocs;
    if o.peak_bytes > max r.src_elems r.tgt_elems * e then line "FAILED: measured peak above the proven bound"
  end;
  line "time: %.6f s (median of %d runs, slowest rank)" o.median_s x.repeat;
  line "peak local array: %d B measured; proven bound max(|src|, |tgt|) = %d B; gather-everything plan: %d B"
    o.peak_bytes (max r.src_elems r.tgt_elems * e) (r.global_elems * e);
  line "workspace: %d B allocated (kWorkspaceBytes), used: ping %d B, pong %d B, scratch %d B; guard bytes %s"
    (Emit.workspace_bytes r) o.used_ping o.used_pong o.used_scratch (if o.guards_intact then "intact" else "CHANGED");
  line "allocations in run(): %d operator new and %d malloc calls from the runtime and generated code; %d malloc calls inside MPI"
    o.news o.own_mallocs o.mallocs;
  Buffer.contents b

let json (x : result) =
  let r = x.report and o = x.o in
  let p = r.problem in
  let e = p.elem_bytes in
  `Assoc
    [ ("verified", `Bool x.verified); ("mesh", `String (F.show_mesh p.env)); ("source", `String (F.show_ty p.env p.src));
      ("target", `String (F.show_ty p.env p.tgt)); ("dtype", `String p.dtype); ("ranks", `Int x.ranks);
      ("plan", `List (List.map (fun (s : Report.step) -> `String (F.show_collective r.env s.coll)) r.steps));
      ("elements_checked", `Int (x.ranks * r.tgt_elems)); ("mismatches", `Int o.mismatches);
      ("median_s", `Float o.median_s); ("repeat", `Int x.repeat); ("peak_bytes", `Int o.peak_bytes);
      ("proven_peak_bytes", `Int (max r.src_elems r.tgt_elems * e)); ("gather_everything_bytes", `Int (r.global_elems * e));
      ("workspace_bytes", `Int (Emit.workspace_bytes r)); ("used_ping_bytes", `Int o.used_ping);
      ("used_pong_bytes", `Int o.used_pong); ("used_scratch_bytes", `Int o.used_scratch);
      ("guards_intact", `Bool o.guards_intact); ("operator_new_calls", `Int o.news);
      ("own_malloc_calls", `Int o.own_mallocs); ("mpi_malloc_calls", `Int o.mallocs) ]
