(* The command line: cmdliner terms for each command, and the guard that
   turns every failure into one line and an exit code:
   0 success, 1 plan rejected (check, gen --plan) or run not verified,
   2 bad input (including command-line errors) or output that cannot be
   written, 3 internal error (a bug: please report), 4 run's toolchain,
   mpirun or the runtime failed. *)

open Cmdliner

exception Input_error of string

(* At most [limit] bytes: /dev/zero or a wrong file given as the plan or
   the profile ends with an error after that much, not when memory runs
   out.  [kind] names what the input should be, for the message. *)
let read_all ~what ~limit ~kind ic =
  let b = Buffer.create 4096 in
  let chunk = Bytes.create 65536 in
  let rec go () =
    let n = input ic chunk 0 (Bytes.length chunk) in
    if n > 0 then begin
      if Buffer.length b + n > limit then
        raise (Input_error (Printf.sprintf "%s: the input is larger than %d bytes (%d MiB), the limit for %s"
                              what limit (limit lsr 20) kind));
      Buffer.add_subbytes b chunk 0 n;
      go ()
    end
  in
  go ();
  Buffer.contents b

let read_source ~what ?(limit = Bounds.max_input_bytes) ?(kind = "a plan file") name =
  try
    if name = "-" then read_all ~what ~limit ~kind stdin
    else begin
      let ic = open_in_bin name in
      Fun.protect ~finally:(fun () -> close_in_noerr ic) (fun () -> read_all ~what ~limit ~kind ic)
    end
  with Sys_error msg -> raise (Input_error (Printf.sprintf "%s: %s" what msg))

(* A write that failed: the output is incomplete, so the command fails. *)
exception Output_error of string

(* After a failed write to stdout its buffer still holds the unwritten
   bytes, which the flushes at exit would try (and fail) to write again;
   pointing the descriptor at /dev/null lets them drain silently. *)
let discard_stdout () =
  try
    let null = Unix.openfile "/dev/null" [ Unix.O_WRONLY ] 0 in
    (* With stdout closed, /dev/null takes its descriptor number. *)
    if null <> Unix.stdout then (Unix.dup2 null Unix.stdout; Unix.close null)
  with Unix.Unix_error _ -> ()

(* The command's whole output, to stdout or to [-o FILE], flushed and
   closed here so that a full disk or a closed pipe is reported. *)
let write_output out text =
  match out with
  | None -> (
      try print_string text; flush stdout
      with Sys_error msg -> discard_stdout (); raise (Output_error ("writing the output: " ^ msg)))
  | Some file -> (
      match open_out_bin file with
      | exception Sys_error msg -> raise (Output_error ("-o: " ^ msg))
      | oc -> (
          try output_string oc text; close_out oc
          with Sys_error msg ->
            close_out_noerr oc;
            raise (Output_error (Printf.sprintf "-o: writing %s: %s" file msg))))

(* A failure as one line on stderr and its exit code; under --json also
   as a JSON error object on stdout (unless stdout is what failed). *)
let report_failure ~json ~command line code =
  let line = Excerpt.shorten_words line in
  prerr_endline ("redist: " ^ line);
  if json then (
    try write_output None (Yojson.Safe.to_string (Json.error ~command ~message:line ~exit_code:code) ^ "\n")
    with Output_error _ -> ());
  code

let guard ?(json = false) ?(command = "redist") f =
  let fail code fmt = Printf.ksprintf (fun s -> report_failure ~json ~command s code) fmt in
  try f () with
  | Output_error msg -> report_failure ~json:false ~command ("error: " ^ msg) 2
  | Front.Bad_input msg | Input_error msg -> fail 2 "error: %s" msg
  | Report.Rejected msg -> fail 1 "plan rejected: %s" msg
  | Run.Tool_error msg -> fail 4 "error: %s" msg
  | Bounds.Overflow -> fail 2 "error: a count of elements exceeds 2^62 - 1 (4.6e18, the range of the 63-bit integers redist counts in); the problem is too large"
  | Stack_overflow -> fail 3 "internal error: stack overflow"
  | Out_of_memory -> fail 3 "internal error: out of memory"
  | e -> fail 3 "internal error: %s" (Printexc.to_string e)

(* ---- arguments ---- *)

let mesh_arg =
  Arg.(required & opt (some string) None
       & info [ "mesh" ] ~docv:"MESH" ~doc:"The device mesh, e.g. $(b,{x:2, y:4}): axis names with sizes, the first axis most significant in the rank.")

let placed_mesh_doc =
  "optionally placed on world ranks: $(b,{x:4} @ 4) (ranks 4 to 7) or $(b,{x:2, y:2} @ [3, 1, 2, 0]) (one distinct world rank per device, row-major)"

let one_mesh_arg =
  Arg.(value & opt (some string) None
       & info [ "mesh" ] ~docv:"MESH"
           ~doc:("The device mesh, e.g. $(b,{x:2, y:4}): axis names with sizes, the first axis most significant in the rank; " ^ placed_mesh_doc ^ " (default: at world rank 0)."))

let from_mesh_arg =
  Arg.(value & opt (some string) None
       & info [ "from-mesh" ] ~docv:"MESH" ~doc:("The source mesh of a move between meshes (with $(b,--to-mesh), instead of $(b,--mesh)), " ^ placed_mesh_doc ^ "."))

let to_mesh_arg =
  Arg.(value & opt (some string) None
       & info [ "to-mesh" ] ~docv:"MESH" ~doc:"The target mesh of a move between meshes; same notation as $(b,--from-mesh).  The two meshes are in one world: their rank sets may overlap or be disjoint.")

let strategy_arg =
  Arg.(value & opt (enum Problem.strategies) Redist_core.StratAuto
       & info [ "strategy" ] ~docv:"STRATEGY"
           ~doc:"$(b,collectives) (the paper's collectives; even problems on one mesh at world rank 0 only), $(b,exchange) (one direct exchange: any layouts, any two meshes; every rank receives exactly the proven lower bound) or $(b,auto) (default: the verified candidate with the least predicted time under the cost model (the built-in profile measured-here, one host, unless $(b,--profile), $(b,--ranks-per-host) or $(b,--hosts)) within $(b,--memory-budget); without a cost option, what can be costed in about half a second: every candidate, else all but the hybrids, else none (then the plan whose busiest rank receives less, then with fewer launches), and the output says which).")

let from_arg =
  Arg.(required & opt (some string) None
       & info [ "from" ] ~docv:"TYPE" ~doc:"The source type in the paper's notation, e.g. $(b,[16{x}32, 64{y}256]); a dimension is $(b,n{a,b}N), $(b,{a,b}N) or $(b,N); an optional dtype prefix such as $(b,f32[...]) is allowed.  A dimension need not be divisible: $(b,{x}50257) over 8 devices is cut into ceil blocks of 6283 (the last one short, some possibly empty); a stated local size must be that ceil block.")

let to_arg =
  Arg.(required & opt (some string) None & info [ "to" ] ~docv:"TYPE" ~doc:"The target type, same notation as $(b,--from).")

let dtype_arg =
  Arg.(value & opt (some string) None
       & info [ "dtype" ] ~docv:"DTYPE" ~doc:("The element type: one of " ^ Dtype.names ^ " (default f32, or the types' prefix)."))

let json_arg = Arg.(value & flag & info [ "json" ] ~doc:"Print one JSON object instead of text.")

let in_place_arg =
  Arg.(value & flag
       & info [ "in-place" ]
           ~doc:"The direct exchange in place: each rank has one buffer of max(|src box|, |tgt box|) elements, holding its source box at the start and its target box at the end, and a staging within $(b,--memory-budget) (the budget less the largest buffer; at least one element more than the largest buffer; without a budget, the staging for the fewest rounds).  The schedule runs in rounds of point-to-point messages and local copies, proven to end with every target box in its buffer, within buffer + staging, with the exchange's traffic.  $(b,gen) prints the schedule as constant tables run by the runtime's redist::InPlace, $(b,run) runs that header and checks every element of every rank's buffer.  Not yet for pending sums or $(b,--strategy collectives), nor with $(b,gen --plan) or $(b,--backend nccl).  Without $(b,--in-place), $(b,plan --memory-budget) under auto weighs it among the candidates, and takes it where only it fits.")

(* The cost model's inputs: a function of the problem, whose world size
   the hosts are checked against. *)
(* The cost options: [settings] for a problem of one cut per dimension;
   composed cuts take [budget] alone (they have one plan, nothing to cost). *)
type cost_options = { settings : Problem.t -> Profile.t; budget : unit -> int option }

let cost_term =
  let profile_arg =
    Arg.(value & opt (some string) None
         & info [ "profile" ] ~docv:"FILE"
             ~doc:"The machine profile (JSON, schema redist-profile/1: latency per message and bandwidth within a host and across hosts, local copy bandwidth), e.g. docs/profiles/h100-nvlink-node.json or one written by $(b,redist calibrate).  Default: the profile measured on the development machine (docs/profiles/measured-here.json).")
  in
  let ranks_per_host_arg =
    Arg.(value & opt (some int) None
         & info [ "ranks-per-host" ] ~docv:"N" ~doc:"World ranks 0 to N-1 are on the first host, N to 2N-1 on the second, and so on (default: all on one host).")
  in
  let hosts_arg =
    Arg.(value & opt (some string) None
         & info [ "hosts" ] ~docv:"H0,H1,..." ~doc:"The host of each world rank, in rank order (any names), e.g. $(b,a,a,b,b).")
  in
  let budget_arg =
    Arg.(value & opt (some string) None
         & info [ "memory-budget" ] ~docv:"BYTES"
             ~doc:"The most bytes the caller may allocate on a rank for the redistribution: its source and destination arrays and the plan's whole workspace (at least the bytes alive at once, which plan also prints), e.g. $(b,4096), $(b,64KiB), $(b,16MiB): plans that allocate more are not chosen; if every plan does, the error names the least figure possible.  Under auto, $(b,plan) weighs the in-place plan too (one buffer per rank and a staging, see $(b,--in-place)): below source + destination only it fits.")
  in
  let make profile ranks_per_host host_list budget =
    let settings (p : Problem.t) =
      let profile_file = Option.map (fun f -> (f, read_source ~what:"--profile" ~limit:Profile.max_file_bytes ~kind:"a profile" f)) profile in
      Profile.settings ~profile_file ~ranks_per_host ~host_list ~budget p
    in
    { settings; budget = (fun () -> Option.map Profile.budget_of_string budget) }
  in
  Term.(const make $ profile_arg $ ranks_per_host_arg $ hosts_arg $ budget_arg)

let examples ex = [ `S Manpage.s_examples; `Pre (String.concat "\n" ex) ]

(* Exit statuses: each command lists those it can return. *)
let exit_success = Cmd.Exit.info 0 ~doc:"on success."
let exit_bad_input =
  Cmd.Exit.info 2 ~doc:"on bad input (syntax, ill-formed mesh or types, unknown options) or output that cannot be written."
let exit_internal = Cmd.Exit.info 3 ~doc:"on an internal error (a bug: please report it)."
let exit_rejected what = Cmd.Exit.info 1 ~doc:("when " ^ what ^ " is rejected by the verified checker: the line of its first failing step and why.")
let exit_not_verified =
  Cmd.Exit.info 1
    ~doc:"when the run is not verified: a wrong element in some rank's target box, a changed guard byte, an allocation in run(), or a measured peak above the proven bound."
let exit_tool = Cmd.Exit.info 4 ~doc:"when mpicxx or mpirun is missing or fails, no runtime is found, the driver does not compile, mpirun times out, or the runtime refuses the run (e.g. $(b,--np) differs from the mesh size)."

(* ---- commands ---- *)

(* The problem of plan, check and gen: one mesh or two, the types, the
   dtype and the strategy. *)
let any_problem_term =
  let make mesh from_mesh to_mesh from to_ dtype strategy () =
    let meshes = Problem.meshes_of_flags ~mesh ~from_mesh ~to_mesh in
    Problem.make_any ~names:Problem.flag_names ~meshes ~strategy ~from ~to_ ~dtype
  in
  Term.(const make $ one_mesh_arg $ from_mesh_arg $ to_mesh_arg $ from_arg $ to_arg $ dtype_arg $ strategy_arg)

let print_cuts ~command ~title ~json r =
  write_output None
    (if json then Yojson.Safe.pretty_to_string (Cutplan.json ~command r) ^ "\n" else Cutplan.text ~title r)

let backend_arg doc =
  Arg.(value & opt (enum [ ("mpi", `Mpi); ("nccl", `Nccl) ]) `Mpi & info [ "backend" ] ~docv:"BACKEND" ~doc)

(* [cost]: the cost model's settings and its choice, or why it was not
   applied, printed after the plan. *)
let print_report ~command ~title ~guarantees ~json ~cost r =
  let problem = Xreport.problem r in
  write_output None
    (if json then
       let doc =
         match (Json.any_report ~command ~guarantees r, cost) with
         | `Assoc fields, Some (settings, costing) -> `Assoc (fields @ Costreport.json_fields settings problem costing)
         | doc, _ -> doc
       in
       Yojson.Safe.pretty_to_string doc ^ "\n"
     else
       Xreport.plan_text ~title ~guarantees r
       ^
       match cost with
       | Some (settings, costing) -> Costreport.text settings problem costing
       | None -> "")

(* [within]: the cost model's choice that took in place within a budget,
   printed after the plan with why. *)
let print_in_place ~command ~title ~json ?within r =
  let p = r.Inplaceplan.exchange.problem in
  let within_guarantees = Guarantees.within @ Guarantees.in_place in
  write_output None
    (match (json, within) with
     | true, None -> Yojson.Safe.pretty_to_string (Inplaceplan.json ~command r) ^ "\n"
     | false, None -> Inplaceplan.text ~title r
     | true, Some (settings, ch) -> (
         match Inplaceplan.json ~guarantees:within_guarantees ~command r with
         | `Assoc fields ->
             Yojson.Safe.pretty_to_string
               (`Assoc
                  (fields @ Costreport.json_fields settings p (Planning.Costed_within (ch, None))
                  @ [ ("in_place_chosen", `String (Costreport.in_place_why settings ch)) ]))
             ^ "\n"
         | _ -> failwith "an in-place report that is not a JSON object")
     | false, Some (settings, ch) ->
         Inplaceplan.text ~guarantees:within_guarantees ~title r ^ Costreport.text settings p (Planning.Costed_within (ch, None))
         ^ Costreport.cost_model_line (Costreport.in_place_why settings ch))

let print_sums ~command ~title ~json ?cost r =
  write_output None
    (if json then Yojson.Safe.pretty_to_string (Sumplan.json ?cost ~command r) ^ "\n" else Sumplan.text ?cost ~title r)

(* Composed cuts are planned by the region exchange, which has no in-place schedule yet. *)
let composed_in_place () = Front.bad "--in-place: a layout of composed cuts is not planned in place yet (one buffer per rank is planned for one cut per dimension)"

let plan_cmd =
  let run problem cost json in_place =
    guard ~json ~command:"plan" (fun () ->
        match problem () with
        | Problem.Composed _ when in_place -> composed_in_place ()
        | Problem.Composed c -> print_cuts ~command:"plan" ~title:"redist plan" ~json (Cutplan.plan ?budget:(cost.budget ()) c); 0
        | Problem.Plain p ->
        let settings = cost.settings p in
        if in_place then print_in_place ~command:"plan" ~title:"redist plan" ~json (Inplaceplan.plan settings p)
        else if Problem.has_pending p then
          let r, costing = Sumplan.choose_costed settings p in
          print_sums ~command:"plan" ~title:"redist plan" ~json ~cost:costing r
        else begin
          (* Under auto a budget weighs in place too ([Costinplace.choose_within]). *)
          match (settings.budget, p.strategy) with
          | Some budget, Redist_core.StratAuto -> (
              match Planning.choose_within settings p budget with
              | Planning.Out_of_place (r, guarantees, choice) ->
                  print_report ~command:"plan" ~title:"redist plan" ~guarantees ~json ~cost:(Some (settings, choice)) r
              | Planning.In_place (staging, schedule, ch) ->
                  print_in_place ~command:"plan" ~title:"redist plan" ~json ~within:(settings, ch)
                    (Inplaceplan.of_schedule settings p staging schedule))
          | _ ->
              let r, guarantees, choice = Planning.choose_costed settings p in
              print_report ~command:"plan" ~title:"redist plan" ~guarantees ~json ~cost:(Some (settings, choice)) r
        end;
        0)
  in
  let doc = "plan a redistribution with the verified planner" in
  let man =
    [ `S Manpage.s_description;
      `P "Prints the plan as a plan file ($(b,redist check --plan -) reads it back): optional $(b,refine) lines naming sub-axes ($(b,y.0), $(b,y.1), ... major to minor), then one collective per line with, as a comment, the type after it, its local size and what the busiest rank receives.  A summary follows: the peak local size against max(|src|, |tgt|) and the gather-everything plan, the busiest rank's and the total traffic against the lower bound, the number of launches, and the Coq theorems that cover the plan.";
      `P "With $(b,--json): one object of the schema redist/1 (docs/schema/redist-1.json; failures too, as {schema, command, error: {message, exit_code}}) with schema, command, mesh, refined_mesh (each axis with name, size and the user's axis it refines: of), refine, source, target, dtype, elem_bytes, steps (op, text, dims, axis, type, local_elems, recv_elems_max), peak_elems, src_elems, tgt_elems, global_elems, recv_elems_max, recv_elems_total, lower_bound_recv_max, lower_bound_recv_total, launches, slices, proven." ]
    @ examples
        [ "  redist plan --mesh '{x:2, y:4}' --from '[16{x}32, 64{y}256]' --to '[8{y}32, 128{x}256]'";
          "  redist plan --mesh '{x:2, y:3}' --from '[3{x}6]' --to '[2{y}6]' --json";
          "  redist plan --mesh '{a:3, b:6}' --from '[2{a}6]' --to '[1{b}6]' | \\\\";
          "    redist check --mesh '{a:3, b:6}' --from '[2{a}6]' --to '[1{b}6]' --plan -" ]
  in
  Cmd.v (Cmd.info "plan" ~doc ~man ~exits:[ exit_success; exit_bad_input; exit_internal ])
    Term.(const run $ any_problem_term $ cost_term $ json_arg $ in_place_arg)

let check_cmd =
  let plan_arg =
    Arg.(required & opt (some string) None
         & info [ "plan" ] ~docv:"FILE" ~doc:(Printf.sprintf "The plan file, $(b,-) for standard input: one collective per line ($(b,dyn_slice(D, AXIS)), $(b,all_gather(D)), $(b,all_to_all(S, T)), $(b,all_permute(TYPE))), optional $(b,refine AXIS = SUB:Q * SUB:R ...) lines first, $(b,#) comments; or the one line $(b,exchange); or two such plans around a line $(b,via TYPE) (a hybrid through that layout; at most %d via lines)." Planfile.max_via_lines))
  in
  let run problem cost plan json in_place =
    guard ~json ~command:"check" (fun () ->
        let title = "redist check: plan accepted" in
        match problem () with
        | Problem.Composed _ when in_place -> composed_in_place ()
        | Problem.Composed c ->
            let text = read_source ~what:"--plan" plan in
            print_cuts ~command:"check" ~title ~json (Cutplan.check ?budget:(cost.budget ()) c text); 0
        | Problem.Plain p ->
        let settings = cost.settings p in
        let text = read_source ~what:"--plan" plan in
        if in_place then print_in_place ~command:"check" ~title ~json (Inplaceplan.check settings p text)
        else if Problem.has_pending p then
          let r = Sumplan.check p text in
          print_sums ~command:"check" ~title ~json ?cost:(Sumplan.cost_checked settings r) r
        else begin
          let r = Planfile.check_any p text in
          (* The prediction only when asked for: lowering a plan of many
             permutes on 65,536 devices costs far more than checking it. *)
          let cost =
            if settings.Profile.given then Some (settings, Planning.Costed (Planning.cost_checked settings r)) else None
          in
          print_report ~command:"check" ~title ~guarantees:(Guarantees.for_checked r) ~json ~cost r
        end;
        0)
  in
  let doc = "check a plan with the verified checker" in
  let man =
    [ `S Manpage.s_description;
      `P "Type-checks each collective of the plan from the source type, and reports the type after each step, the local size, the elements received by the busiest rank, the peak and the total traffic.  A rejected plan gets the line of the first failing step and the reason, exit code 1.";
      `P "Sub-axes: a line $(b,refine y = y.0:2 * y.1:3) (before the first collective) splits axis y of size 6 into y.0 (size 2, major) and y.1 (size 3, minor); the collectives may then use y.0 and y.1.  The source and target types are given on the user's mesh and are refined automatically." ]
    @ examples
        [ "  printf 'dyn_slice(0, y)\\\\nall_permute([1{y,x}6])\\\\nall_gather(0)\\\\n' > worked.plan";
          "  redist check --mesh '{x:2, y:3}' --from '[3{x}6]' --to '[2{y}6]' --plan worked.plan";
          "";
          "  printf 'refine b = b.0:3 * b.1:2\\\\ndyn_slice(0, b.1)\\\\nall_permute([1{b}6])\\\\n' > sub.plan";
          "  redist check --mesh '{a:3, b:6}' --from '[2{a}6]' --to '[1{b}6]' --plan sub.plan" ]
  in
  Cmd.v (Cmd.info "check" ~doc ~man ~exits:[ exit_success; exit_rejected "the plan"; exit_bad_input; exit_internal ])
    Term.(const run $ any_problem_term $ cost_term $ plan_arg $ json_arg $ in_place_arg)

let show_cmd =
  let type_arg =
    Arg.(value & opt (some string) None
         & info [ "type" ] ~docv:"TYPE" ~doc:"One layout to show on $(b,--mesh), e.g. $(b,[3{x}6]).")
  in
  let side_arg option what =
    Arg.(value & opt (some string) None
         & info [ option ] ~docv:"TYPE" ~doc:("The " ^ what ^ " type of a problem to show (with $(b,--from) and $(b,--to) instead of $(b,--type)), on $(b,--mesh) or on $(b,--from-mesh) and $(b,--to-mesh)."))
  in
  let run mesh from_mesh to_mesh ty from to_ json =
    guard ~json ~command:"show" (fun () ->
        let text, doc =
          match (ty, from, to_) with
          | Some ty, None, None ->
              if from_mesh <> None || to_mesh <> None then
                Front.bad "--type shows one layout on --mesh; for two meshes give --from and --to";
              let mesh = match mesh with Some m -> m | None -> Front.bad "--type needs --mesh" in
              let pm = Problem.placed ~what:"--mesh" mesh in
              let ast = Problem.parse ~what:"--type" Syntax.ty ty in
              if Front.is_composed ast then begin
                if ast.pending <> None then Front.bad "--type: pending axes with composed cuts are not shown yet";
                let t = Front.cty_of_ast ~what:"--type" pm.env ast in
                ((fun () -> Show.render_composed pm t), fun () -> Show.json_composed pm t)
              end
              else
              let dtype = Option.fold ~none:Dtype.default ~some:(Front.dtype_at ~what:"--type") ast.dtype in
              let t = Front.ty_of_ast ~what:"--type" pm.env ast in
              let op = Option.value (Front.op_of_ast ast) ~default:Dtype.Sum in
              let axes = Problem.pending_checked ~what:"--type" pm ast t in
              if axes <> [] then Problem.check_op ~what:"--type" dtype op;
              let pending = (op, axes) in
              ((fun () -> Show.render ~pending pm t), fun () -> Show.json ~pending pm t)
          | None, Some from, Some to_ ->
              let meshes = Problem.meshes_of_flags ~mesh ~from_mesh ~to_mesh in
              (match Problem.make_any ~names:Problem.flag_names ~meshes ~strategy:Redist_core.StratAuto ~from ~to_ ~dtype:None with
               | Problem.Plain p -> ((fun () -> Show.render_problem p), fun () -> Show.json_problem p)
               | Problem.Composed c when Cutplan.reducing c -> Front.bad "--from/--to: pending axes with composed cuts are not shown yet"
               | Problem.Composed c -> ((fun () -> Show.render_composed_problem c), fun () -> Show.json_composed_problem c))
          | Some _, _, _ -> Front.bad "give --type (one layout) or --from and --to (a problem), not both"
          | None, Some _, None -> Front.bad "--from needs --to"
          | None, None, Some _ -> Front.bad "--to needs --from"
          | None, None, None -> Front.bad "nothing to show: give --type, or --from and --to"
        in
        write_output None (if json then Yojson.Safe.pretty_to_string (doc ()) ^ "\n" else text ());
        0)
  in
  let doc = "show which block of the global array each device holds" in
  let man =
    [ `S Manpage.s_description;
      `P "With $(b,--type): one row per device: its world rank, its coordinates and the index range it holds in each dimension (for arrays of more than two dimensions, only the sharded dimensions); a ceil block cut short shows its true range, an empty one $(b,empty).  For one and two dimensions, also a map of the blocks with the ranks that hold each.";
      `P (Printf.sprintf "Composed cuts ($(b,{x}{y}N), $(b,{x}%%B N)): per device its local shape and, per dimension, the intervals of global indices it holds, in local order (more than %d are cut short with their count); no block map." Show.max_intervals);
      `P "With $(b,--from) and $(b,--to): both layouts of a problem, on $(b,--mesh) or on $(b,--from-mesh) and $(b,--to-mesh): one row per world rank with its source device and box (before) and its target device and box (after), $(b,-) where the rank is not in that mesh; then the block map of each side.";
      `P "With $(b,--json): one object of the schema redist/1.  For $(b,--type): schema, command, mesh, type, global_shape, local_shape, local_elems and devices (rank, coords, offset, extent).  For a problem: schema, command, world, and source and target, each with mesh (axes and ranks), type, global_shape, local_shape, local_elems and devices." ]
    @ examples
        [ "  redist show --mesh '{x:2, y:3}' --type '[3{x}6]'"; "  redist show --mesh '{x:2, y:2}' --type '[4{x}8, 8{}8, 2{y}4]'";
          "  redist show --from-mesh '{x:4}' --to-mesh '{x:2, y:2} @ [5, 4, 3, 2]' --from '[{x}10, 3]' --to '[{y}10, {x}3]'" ]
  in
  Cmd.v (Cmd.info "show" ~doc ~man ~exits:[ exit_success; exit_bad_input; exit_internal ])
    Term.(const run $ one_mesh_arg $ from_mesh_arg $ to_mesh_arg $ type_arg $ side_arg "from" "source" $ side_arg "to" "target" $ json_arg)

(* gen of composed cuts: the region exchange's tables, over MPI. *)
let gen_composed (c : Problem.composed) ~plan ~backend ~name ~out =
  Emit.check_name name;
  Problem.check_runtime_limits c.meshes;
  if backend = `Nccl then
    Front.bad "--backend nccl: composed cuts are run by the MPI region exchange only so far; use --backend mpi";
  Option.iter (fun file -> ignore (Cutplan.check c (read_source ~what:"--plan" file))) plan;
  write_output out (Cxx.print (Emit_regions.header ~name c));
  0

let gen_cmd =
  let plan_arg =
    Arg.(value & opt (some string) None
         & info [ "plan" ] ~docv:"FILE" ~doc:"Use this plan (checked first; same syntax as $(b,check)) instead of the planner's.")
  in
  let backend_arg =
    backend_arg "$(b,mpi) (runtime/include/redist/mpi.hpp) or $(b,nccl) (runtime/include/redist/nccl.hpp: device buffers, work enqueued on the mesh's CUDA stream; no hybrids yet: the cost model chooses among the other plans)."
  in
  let name_arg =
    Arg.(required & opt (some string) None
         & info [ "name" ] ~docv:"NAME" ~doc:"The C++ namespace of the generated code.")
  in
  let out_arg =
    Arg.(value & opt (some string) None & info [ "o"; "output" ] ~docv:"FILE" ~doc:"Write the header to FILE instead of standard output.")
  in
  let run problem cost plan backend name out in_place =
    guard ~command:"gen" (fun () ->
        match problem () with
        | Problem.Composed _ when in_place -> composed_in_place ()
        | Problem.Composed c -> gen_composed c ~plan ~backend ~name ~out
        | Problem.Plain p ->
        let settings = cost.settings p in
        Emit.check_name name;
        Problem.check_runtime_limits p;
        let header =
          if in_place then begin
            if plan <> None then Front.bad "--in-place: the schedule is the in-place planner's; --plan is not taken in place";
            if backend = `Nccl then Front.bad "--in-place: the in-place executor runs over MPI only; use --backend mpi";
            Emit_inplace.header ~name (Inplaceplan.plan settings p)
          end
          else if Problem.has_pending p then begin
            let r =
              match plan with
              | Some file ->
                  let r = Sumplan.check p (read_source ~what:"--plan" file) in
                  ignore (Sumplan.cost_checked settings r);
                  r
              | None -> fst (Sumplan.choose_costed settings p)
            in
            (* The proven live bytes are the MPI reducing exchange's; over NCCL
               it stages its messages too (Lowernccl.v), not counted there. *)
            if backend = `Nccl && r.plan = Redist_core.SumByExchange && settings.budget <> None then
              Front.bad "--memory-budget with --backend nccl: the bytes the NCCL reducing exchange allocates are not costed yet (its staging, the header's kWorkspaceBytes, is not the MPI staging a budget is weighed against); use --backend mpi, or no budget";
            Emit_sums.header ~name ~backend:(match backend with `Mpi -> Emit.Mpi | `Nccl -> Emit.Nccl) r
          end
          else
            let r, guarantees =
              match plan with
              | Some file ->
                  let r = Planfile.check_any p (read_source ~what:"--plan" file) in
                  ignore (Planning.cost_checked settings r);
                  (r, Guarantees.for_checked r)
              | None ->
                  let no_hybrids = match backend with `Nccl -> Some Emit.nccl_no_hybrids | `Mpi -> None in
                  let r, guarantees, _ = Planning.choose_costed ?no_hybrids settings p in
                  (r, guarantees)
            in
            Emit.plan_header ~name ~backend:(match backend with `Mpi -> Emit.Mpi | `Nccl -> Emit.Nccl) ~guarantees r
        in
        write_output out (Cxx.print header);
        0)
  in
  let doc = "generate a C++17 header that performs the redistribution" in
  let man =
    [ `S Manpage.s_description;
      `P "Emits a header with the plan as straight-line calls into the redist runtime, every shape, group (stride, size) and permutation table baked in as constants, src_box/tgt_box helpers giving each rank's boxes, and the exact workspace size.  The header starts with a comment stating the problem, the plan and the proven guarantees.";
      `P "API of the header (namespace $(b,redist_gen::NAME); NAME is a C++ identifier other than a keyword, a macro or a reserved name): $(b,create_mesh(MPI_Comm, redist::Mesh*)) (collective, once; with $(b,--backend nccl): $(b,create_mesh(MPI_Comm, cudaStream_t, redist::nccl::Mesh*)), and run only enqueues: call $(b,mesh.synchronize())), $(b,run(mesh, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes)) (collective), constants $(b,kSrcElems), $(b,kTgtElems), $(b,kSrcBytes), $(b,kTgtBytes), $(b,kWorkspaceBytes), $(b,kSrcLayout), $(b,kTgtLayout), and $(b,src_box)/$(b,tgt_box)(rank, offset, extent).  For an exchange plan: $(b,create_exchange(MPI_Comm, redist::Exchange*)) and $(b,run(ex, src, src_bytes, dst, dst_bytes)); with $(b,--backend nccl): $(b,create_exchange(ncclComm_t, cudaStream_t, redist::nccl::Exchange*)) or $(b,create_exchange(MPI_Comm, redist::nccl::Exchange*)), $(b,run(ex, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, cudaStream_t)) and $(b,kWorkspaceBytes), the staging the busiest rank needs.";
      `P "Composed cuts ($(b,{x}{y}N), $(b,{x}%B N); MPI only): every world rank's extracted region messages and local copies as constant tables, $(b,create_exchange(MPI_Comm, redist::RegionExchange*)) (each rank takes its own part of the tables) and $(b,run(ex, src, src_bytes, dst, dst_bytes)) on its dense row-major local arrays, with the constants and the Plan interface of an exchange header.";
      `P "With $(b,--in-place): the exchange in place (see $(b,redist plan --in-place)): constants $(b,kBufferElems[kWorldSize]) and $(b,kBufferBytes[kWorldSize]) (each world rank's buffer, max(|src box|, |tgt box|)), $(b,kStagingBytes) (every rank's staging), $(b,kLiveBytes) (the largest buffer + the staging), $(b,kRounds), one array of moves per round and $(b,kSchedule); $(b,create(MPI_Comm, redist::InPlace*)) (collective, once) and $(b,run(ip, buffer, buffer_bytes, staging, staging_bytes)) (collective, no allocation): the buffer holds this rank's source box at offset 0 before and its target box after." ]
    @ examples
        [ "  redist gen --strategy collectives --mesh '{x:2, y:4}' --from '[16{x}32, 64{y}256]' --to '[8{y}32, 128{x}256]' \\\\";
          "    --dtype f32 --backend mpi --name reshard -o reshard.hpp";
          "  redist gen --mesh '{x:4}' --from '[{x}8, 8]' --to '[8, {x}8]' --in-place --memory-budget 80 --name rows_to_cols";
          "  mpicxx -std=c++17 -IPREFIX/include app.cpp PREFIX/lib/libredist_mpi.a PREFIX/lib/libredist_common.a";
          "  # PREFIX: where make install put redist, or _build/prefix of the source tree after make" ]
  in
  Cmd.v (Cmd.info "gen" ~doc ~man
           ~exits:[ exit_success; exit_rejected "the plan given with $(b,--plan)"; exit_bad_input; exit_internal ])
    Term.(const run $ any_problem_term $ cost_term $ plan_arg $ backend_arg $ name_arg $ out_arg $ in_place_arg)

let run_cmd =
  let np_arg =
    Arg.(value & opt (some int) None
         & info [ "np" ] ~docv:"N" ~doc:"Start N MPI processes (default: the world, the largest rank of either mesh plus one).  Fewer get the runtime's error; with a direct exchange, more take part holding nothing.")
  in
  let backend_arg = backend_arg "$(b,mpi) (the only backend $(b,run) executes; $(b,nccl) is refused)." in
  let repeat_arg =
    Arg.(value & opt int 5 & info [ "repeat" ] ~docv:"K" ~doc:"Timed runs (1 to 1000); the median of the slowest rank's times is printed.")
  in
  let timeout_arg =
    Arg.(value & opt int 300 & info [ "timeout" ] ~docv:"SECONDS" ~doc:(Printf.sprintf "Stop mpirun after this many seconds (SIGTERM, then SIGKILL %.0f s later): exit 4." Run.grace_s))
  in
  let work_dir_arg =
    Arg.(value & opt (some string) None
         & info [ "work-dir" ] ~docv:"DIR" ~doc:"Write the header, driver, executable and logs into DIR and keep them (default: a temporary directory, removed).")
  in
  let run problem cost np backend json repeat timeout work_dir in_place =
    guard ~json ~command:"run" (fun () ->
        let problem = problem () in
        if backend = `Nccl then Front.bad "--backend: run executes only the mpi backend (nccl needs GPUs: use gen)";
        let print doc text verified =
          write_output None (if json then Yojson.Safe.to_string doc ^ "\n" else text);
          if verified then 0 else 1
        in
        match
          match problem with
          | Problem.Composed _ when in_place -> composed_in_place ()
          | Problem.Composed c ->
              let x = Run.run_composed c ~np ~repeat ~timeout ~work_dir in
              print (Run.json x) (Run.text x) x.verified
          | Problem.Plain p ->
              let settings = cost.settings p in
              if in_place then
                let x = Run.run_in_place p ~cost:settings ~np ~repeat ~timeout ~work_dir in
                print (Run.json_in_place x) (Run.text_in_place x) x.ip_verified
              else
                let x = Run.run p ~cost:settings ~np ~repeat ~timeout ~work_dir in
                print (Run.json x) (Run.text x) x.verified
        with
        | code -> code
        | exception Run.Interrupted { signal; exit_code } ->
            report_failure ~json ~command:"run" ("error: interrupted by " ^ signal ^ ": mpirun and its ranks were stopped") exit_code)
  in
  let doc = "plan, generate, compile and run a redistribution under mpirun, and verify it" in
  let man =
    [ `S Manpage.s_description;
      `P "Plans the problem with $(b,--strategy) (uneven and cross-mesh problems by the direct exchange), generates the header as $(b,gen) does, compiles it with a driver (mpicxx -O2) against the MPI runtime, and runs it under $(b,mpirun -np N) with the options below.  Every rank fills its source box with a function of the global index (distinct per element for 4-, 8- and 16-byte types; a 64-bit hash truncated to 1 or 2 bytes for the 1- and 2-byte types, so there a misplaced element escapes with probability 2^-8 or 2^-16), runs the plan, and compares every element of its target box; a rank outside a mesh passes null and 0 for that side.  A collectives plan runs with a workspace of exactly kWorkspaceBytes between guard bytes.  For a direct exchange the boxes come from the Coq model (the runtime's must agree, or nothing runs), guard bytes follow the destination, and every rank must receive exactly its proven lower bound.  For composed cuts each rank's local arrays are computed in the driver from the layouts as written (Part 3's table, apart from the planner), the runtime's must have their sizes, and every rank must receive exactly the extracted region_recv_count.";
      `P "Prints $(b,verified) or $(b,FAILED) with the number of mismatched elements, what the busiest rank received against the lower bound (exchange), the median time of K runs (slowest rank), the measured peak local array (the largest of source, destination and the used workspace buffers) against the proven bound (max(|src|, |tgt|); for the exchange the largest source or target box) and the gather-everything plan, the used part of the workspace, and the operator new and malloc calls made during the runs (operator new and malloc from the runtime and generated code must be 0; MPI's own malloc calls are reported apart).";
      `P "With $(b,--in-place): the header of $(b,gen --in-place) on every rank: each rank's buffer (max(|src box|, |tgt box|) of the Coq model, which the runtime's must equal) holds its source box at offset 0, and after every run its first |tgt box| elements must be its target box; guard bytes follow the buffer and surround the staging.  Prints the rounds, the staging, the live bytes measured (buffer + staging used, busiest rank) against the proven buffer + staging, and the heap's peak growth during a run (every allocation of the process, Open MPI's included) beside the allocation counts.";
      `P "The runtime (headers and static libraries) is taken from the prefix $(b,REDIST_RUNTIME_PREFIX) if set; else from the prefix redist is installed in (PREFIX/bin/redist with PREFIX/include/redist and PREFIX/lib, as $(b,make install) puts them); else from _build/prefix of the source tree whose _build holds the executable (staged by $(b,make runtime)).  redist run never builds the runtime: concurrent runs are independent, each in a temporary directory of its own under $(b,TMPDIR), removed at the end.";
      `S "MPIRUN OPTIONS" ]
    @ List.map (fun (o : Run.mpirun_option) -> `I ("$(b," ^ String.concat " " o.flags ^ ")", o.why)) Run.mpirun_option_table
    @ [ `S Manpage.s_exit_status ]
    @ examples
        [ "  redist run --mesh '{x:2, y:3}' --from '[3{x}6]' --to '[2{y}6]' --strategy collectives";
          "  redist run --mesh '{x:8}' --from '[{x}50257]' --to '[50257]'";
          "  redist run --from-mesh '{x:4}' --to-mesh '{x:2, y:4} @ 4' --from '[{x}64, 16]' --to '[{x}64, {y}16]'";
          "  redist run --mesh '{x:2, y:2, z:2}' --from '[8{x}16, 16{y,z}64]' --to '[16, 8{z,y,x}64]' --dtype f64 --json";
          "  redist run --from-mesh '{x:2}' --to-mesh '{y:3} @ 1' --from '[{x}7, 5]' --to '[{y}7, 5]' --in-place --memory-budget 84" ]
  in
  let run_exits =
    [ Cmd.Exit.info 0 ~doc:"when every element of every rank's target box was verified.";
      exit_not_verified;
      Cmd.Exit.info 2
        ~doc:"on bad input: syntax, ill-formed mesh or types, unknown options, $(b,--np), $(b,--repeat) or $(b,--timeout) out of range, a missing $(b,--work-dir), an unusable $(b,TMPDIR), or output that cannot be written.";
      exit_internal;
      exit_tool;
      Cmd.Exit.info 130 ~doc:"when interrupted by SIGINT: the compiler or mpirun and every rank stopped, the temporary directory removed.";
      Cmd.Exit.info 143 ~doc:"when interrupted by SIGTERM, likewise.";
      Cmd.Exit.info 129 ~doc:"when interrupted by SIGHUP (a closed terminal or ssh session), likewise.";
      Cmd.Exit.info 131 ~doc:"when interrupted by SIGQUIT, likewise.";
      Cmd.Exit.info 141 ~doc:"when interrupted by SIGPIPE, likewise." ]
  in
  Cmd.v (Cmd.info "run" ~doc ~man ~exits:run_exits)
    Term.(const run $ any_problem_term $ cost_term $ np_arg $ backend_arg $ json_arg $ repeat_arg $ timeout_arg $ work_dir_arg
          $ in_place_arg)

let calibrate_cmd =
  let np_arg = Arg.(value & opt int 2 & info [ "np" ] ~docv:"N" ~doc:"Start N MPI processes (at least 2; default 2).") in
  let ranks_per_host_arg =
    Arg.(value & opt (some int) None
         & info [ "ranks-per-host" ] ~docv:"N"
             ~doc:"Ranks 0 to N-1 share a host (as mpirun places them): the across-hosts link is measured between rank 0 and rank N, which needs $(b,--np) above N.  Without it, the across-hosts link is written equal to the same-host one.")
  in
  let name_arg = Arg.(value & opt string "measured" & info [ "name" ] ~docv:"NAME" ~doc:"The profile's name (printed by plan).") in
  let out_arg = Arg.(value & opt (some string) None & info [ "o"; "output" ] ~docv:"FILE" ~doc:"Write the profile to FILE instead of standard output.") in
  let timeout_arg = Arg.(value & opt int 300 & info [ "timeout" ] ~docv:"SECONDS" ~doc:"Stop mpirun after this many seconds: exit 4.") in
  let run np ranks_per_host name out timeout =
    guard ~command:"calibrate" (fun () ->
        match Calibrate.run ~np ~ranks_per_host ~name ~timeout with
        | text -> write_output out text; 0
        | exception Run.Interrupted { signal; exit_code } ->
            report_failure ~json:false ~command:"calibrate" ("error: interrupted by " ^ signal ^ ": mpirun and its ranks were stopped") exit_code)
  in
  let doc = "measure this machine and write a profile for --profile" in
  let man =
    [ `S Manpage.s_description;
      `P "Compiles a small MPI program with mpicxx and runs it under $(b,mpirun -np N) (with run's mpirun options): ping-pong latency (8 bytes, best of 2000) and bandwidth (4 MiB, best of 20, less the latency) between ranks 0 and 1, and between rank 0 and rank N of $(b,--ranks-per-host N) when there is one; single copy on a host between ranks 0 and 1 (the runtime's direct exchange on source arrays from redist::shared_alloc, compiled against the runtime as $(b,run) is); the bandwidth of a 16 MiB memcpy.  Writes a JSON profile (schema redist-profile/1) that $(b,plan), $(b,check), $(b,gen) and $(b,run) read with $(b,--profile)." ]
    @ examples [ "  redist calibrate -o here.json"; "  redist plan --mesh '{x:2, y:2}' --from '[{x}64, {y}64]' --to '[{y}64, {x}64]' --profile here.json" ]
  in
  Cmd.v (Cmd.info "calibrate" ~doc ~man ~exits:[ exit_success; exit_bad_input; exit_internal; exit_tool ])
    Term.(const run $ np_arg $ ranks_per_host_arg $ name_arg $ out_arg $ timeout_arg)

let commands = [ plan_cmd; check_cmd; show_cmd; gen_cmd; run_cmd; calibrate_cmd ]

let command_names = List.map Cmd.name commands

let main_cmd =
  let doc = "verified redistribution of sharded arrays" in
  let man =
    [ `S Manpage.s_description;
      `P "Plans, checks and generates code for moving a sharded array from one layout (type) to another over a device mesh.  Planning and checking are done by code extracted from Coq proofs (see proofs/)." ;
      `P "Each command has its own manual: $(b,redist) $(i,COMMAND) $(b,--help) (e.g. $(b,redist plan --help)); this page is installed as redist(1).";
      `P "Limits: at most 65536 devices and 64 mesh axes; at most 64 dimensions; every global extent and the product of the global extents below 2^50 (the extracted arithmetic uses 63-bit integers); plan files of at most 16 MiB, 100000 collectives and 2^23 (8388608) collectives times devices (128 collectives on 65536 devices); $(b,gen): at most 8 dimensions and 8 mesh axes (the runtime's limits)." ]
  in
  Cmd.group (Cmd.info "redist" ~version:(Printf.sprintf "%s (revision %s)" Version.version Version.revision) ~doc ~man
       ~exits:
         [ exit_success;
           Cmd.Exit.info 1 ~doc:"when a plan is rejected ($(b,check), $(b,gen --plan)) or a run is not verified ($(b,run)).";
           exit_bad_input; exit_internal;
           Cmd.Exit.info 4 ~doc:"when $(b,run)'s toolchain or mpirun fails or the runtime refuses the run.";
           Cmd.Exit.info 130 ~doc:"when $(b,run) is interrupted by SIGINT (143: by SIGTERM)." ])
    commands

(* Command-line errors from cmdliner are reduced to their first line, in the
   same one-line form as every other error.  Help and version text are
   collected and written like any other output, so a failed write is an
   error there too. *)
(* The extracted planner allocates many short-lived lists (rank tables,
   boxes, candidate programs); with OCaml's default 256k-word minor heap a
   65,536-device problem spent about a third of its time in the collector.
   A 4M-word (32 MiB) minor heap cuts its planning time by a quarter. *)
let tune_gc () = Gc.set { (Gc.get ()) with Gc.minor_heap_size = 4 * 1024 * 1024 }

let run argv =
  let errbuf = Buffer.create 256 and helpbuf = Buffer.create 4096 in
  let err = Format.formatter_of_buffer errbuf and help = Format.formatter_of_buffer helpbuf in
  (* Help goes to a pager only on a terminal; elsewhere it is plain text
     into [help].  Cmdliner decides by reading TERM itself. *)
  if not (Unix.isatty Unix.stdout) then Unix.putenv "TERM" "dumb";
  let result = try Ok (Cmd.eval_value ~argv ~help ~err main_cmd) with e -> Error e in
  Format.pp_print_flush err ();
  Format.pp_print_flush help ();
  match result with
  | Ok (Ok (`Ok code)) -> code
  | Ok (Ok (`Help | `Version)) -> guard (fun () -> write_output None (Buffer.contents helpbuf); 0)
  | Ok (Error _) ->
      (* Cmdliner wraps its message over several lines, then adds a usage
         line and a hint: the message is every line before those. *)
      let lines = String.split_on_char '\n' (Buffer.contents errbuf) in
      let starts_with prefix l = String.length l >= String.length prefix && String.sub l 0 (String.length prefix) = prefix in
      let rec message = function
        | l :: rest when not (starts_with "Usage:" l || starts_with "Try " l) -> String.trim l :: message rest
        | _ -> []
      in
      let first = String.concat " " (List.filter (( <> ) "") (message lines)) in
      let body =
        match String.index_opt first ':' with
        | Some k when starts_with "redist" first -> String.trim (String.sub first (k + 1) (String.length first - k - 1))
        | _ -> first
      in
      let command = match Array.to_list argv with _ :: c :: _ when List.mem c command_names -> c | _ -> "redist" in
      report_failure ~json:(Array.mem "--json" argv) ~command
        ("error: " ^ (if body = "" then "invalid command line" else body)) 2
  | Error e ->
      prerr_endline ("redist: internal error: " ^ Printexc.to_string e);
      3
