(* `redist calibrate`: compiles calibrate_main.cpp (embedded) with mpicxx
   against the MPI runtime (for its single copy on a host), runs it under
   mpirun, and writes what it measured as a machine profile (Profile's
   schema), which --profile reads back.  Without a rank on another host the
   across-hosts link is not measured: it is written equal to the same-host
   link, and the profile says so.  Where single copy did not apply between
   ranks 0 and 1 the profile has no single_copy field. *)

let ( / ) = Filename.concat

let measure ~np ~far ~timeout =
  if not (Run.on_path "mpicxx") then Run.fail "mpicxx is not on PATH (install libopenmpi-dev: make deps)";
  if not (Run.on_path "mpirun") then Run.fail "mpirun is not on PATH (install openmpi-bin: make deps)";
  let prefix = Run.locate_prefix () in
  let dir = Run.temp_dir () in
  Fun.protect ~finally:(fun () -> Run.remove_dir dir) (fun () ->
      Run.write (dir / "calibrate.cpp") Embedded.calibrate_main_cpp;
      let exe = dir / "calibrate" and log = dir / "compile.log" in
      let args = [ "-std=c++17"; "-O2"; "-I" ^ (prefix / "include"); dir / "calibrate.cpp" ] @ Run.libraries prefix @ [ "-o"; exe ] in
      if Run.command ~log "mpicxx" args <> Run.Exited 0 then
        Run.fail "compiling the calibration against %s failed: %s" prefix (Run.first_error log);
      let out = dir / "calibrate.out" and result = dir / "result.json" in
      let far_arg = match far with Some r -> [ string_of_int r ] | None -> [] in
      let ending =
        Run.command ~timeout ~log:out "mpirun" (Run.mpirun_options () @ [ "-np"; string_of_int np; exe; result ] @ far_arg)
      in
      let measured (j : Yojson.Safe.t) =
        let field k = match j with `Assoc l -> (match List.assoc_opt k l with Some (`Int n) -> n | _ -> raise Not_found) | _ -> raise Not_found in
        let single = (field "single_latency_ns", field "single_bytes_per_us") in
        ( (field "same_latency_ns", field "same_bytes_per_us"),
          (if far = None then None else Some (field "across_latency_ns", field "across_bytes_per_us")),
          (if fst single < 0 then None else Some single),
          field "copy_bytes_per_us" )
      in
      match (ending, Sys.file_exists result) with
      | Run.Exited 0, true -> (
          match measured (Yojson.Safe.from_file result) with
          | m -> m
          | exception (Not_found | Yojson.Json_error _) -> Run.fail "the calibration's result %s is not the expected JSON" result)
      | Run.Timed_out, _ -> Run.fail "mpirun -np %d timed out after %d s" np timeout
      | _ ->
          let rc = match ending with Run.Exited rc -> rc | Run.Timed_out -> 124 in
          let output = Run.lines (Run.read out) in
          Run.fail "mpirun -np %d failed (exit %d): %s" np rc (match output with l :: _ -> String.trim l | [] -> "no output"))

(* The profile as JSON, checked by Profile's own reader before it is written. *)
let profile_json ~name ~np ~far ((sl, sb), across, single, copy) =
  let clamp lo hi n = max lo (min hi n) in
  let link (l, b) =
    `Assoc [ ("latency_ns", `Int (clamp 0 Profile.max_latency_ns l)); ("bytes_per_us", `Int (clamp 1 Profile.max_bytes_per_us b)) ]
  in
  let same = link (sl, sb) in
  let across_json, across_source =
    match (across, far) with
    | Some a, Some r -> (link a, Printf.sprintf "across_hosts: ping-pong between rank 0 and rank %d" r)
    | _ -> (same, "across_hosts: not measured (no rank on another host: give --ranks-per-host below --np); the same-host figures")
  in
  let single_fields, single_source =
    match single with
    | Some s ->
        ( [ ("single_copy", link s) ],
          "single_copy: ranks 0 and 1 swap blocks by the direct exchange with source arrays from redist::shared_alloc, best of 500 swaps of 8 bytes and 20 of 4 MiB; bandwidth from the difference, latency the same-host latency plus what a small swap by single copy takes beyond one by MPI" )
    | None -> ([], "single_copy: absent, single copy did not apply between ranks 0 and 1 (not on one host)")
  in
  let j =
    `Assoc
      ([ ("schema", `String Profile.schema); ("name", `String name);
         ("description", `String (Printf.sprintf "measured by redist calibrate with %d MPI ranks on %s" np (Unix.gethostname ())));
         ("same_host", same); ("across_hosts", across_json) ]
      @ single_fields
      @ [ ("copy_bytes_per_us", `Int (clamp 1 Profile.max_bytes_per_us copy));
          ( "sources",
            `List
              [ `String "same_host: ping-pong between ranks 0 and 1, best of 2000 rounds of 8 bytes (latency) and 20 of 4 MiB (bandwidth, less the latency)";
                `String across_source; `String single_source; `String "copy_bytes_per_us: memcpy of 16 MiB on rank 0, best of 20" ] ) ])
  in
  ignore (Profile.of_json ~what:"the measured profile" j);
  Yojson.Safe.pretty_to_string j ^ "\n"

let run ~np ~ranks_per_host ~name ~timeout =
  if np < 2 || np > Run.max_procs then Front.bad "--np: %d processes; calibrate starts 2 to %d" np Run.max_procs;
  if timeout < 1 then Front.bad "--timeout: %d; expected at least 1 second" timeout;
  let far =
    match ranks_per_host with
    | None -> None
    | Some n when n < 2 -> Front.bad "--ranks-per-host: %d; calibrate needs at least 2 ranks on one host" n
    | Some n -> if n < np then Some n else None
  in
  profile_json ~name ~np ~far (Run.forwarding_signals (fun () -> measure ~np ~far ~timeout))
