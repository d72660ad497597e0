(* Unit tests of the redist_cli library: expected values are worked out by
   hand from the model document, not copied from the tool's output. *)

let problem ?dtype mesh from to_ = Problem.make ~mesh ~from ~to_ ~dtype

let worked () = problem "{x:2, y:3}" "[3{x}6]" "[2{y}6]"
let subaxes () = problem "{a:3, b:6}" "[2{a}6]" "[1{b}6]"

let contains s sub =
  let n = String.length sub in
  let rec go k = k + n <= String.length s && (String.sub s k n = sub || go (k + 1)) in
  go 0

(* ---- parser ---- *)

let parse_error_column () =
  match Syntax.mesh "{x:2 y:3}" with
  | _ -> Alcotest.fail "accepted a mesh without a comma"
  | exception Syntax.Parse_error (col, msg) ->
      Alcotest.(check int) "column of the missing comma" 6 col;
      Alcotest.(check bool) "says what was expected" true (contains msg "expected ',' or '}'")

let whitespace_tolerant () =
  let t = Syntax.ty "  f32 [ 16 { x , y } 64 ,{y}8,\t5 ] " in
  Alcotest.(check (option string)) "dtype" (Some "f32") (Option.map (fun (n : Syntax.name) -> n.name) t.dtype);
  Alcotest.(check (list int)) "global sizes" [ 64; 8; 5 ] (List.map (fun (d : Syntax.dim) -> d.global) t.dims);
  Alcotest.(check (list (option int))) "stated local sizes" [ Some 16; None; None ]
    (List.map (fun (d : Syntax.dim) -> d.local) t.dims)

let number_too_large () =
  match Syntax.ty "[1125899906842624]" with
  | _ -> Alcotest.fail "accepted 2^50"
  | exception Syntax.Parse_error (col, msg) ->
      Alcotest.(check int) "column" 2 col;
      Alcotest.(check bool) "names the limit" true (contains msg "2^50")

(* ---- front end: each bad input named ---- *)

let rejects name mesh from to_ fragment =
  Alcotest.test_case name `Quick (fun () ->
      match problem mesh from to_ with
      | _ -> Alcotest.fail "accepted bad input"
      | exception Front.Bad_input msg ->
          Alcotest.(check bool) (Printf.sprintf "%S mentions %S" msg fragment) true (contains msg fragment);
          Alcotest.(check bool) "one line" false (String.contains msg '\n'))

let plan_too_long () =
  let text = String.concat "" (List.init (Bounds.max_plan_steps + 1) (fun _ -> "all_gather(0)\n")) in
  match Planfile.check (worked ()) text with
  | _ -> Alcotest.fail "accepted an over-long plan"
  | exception Front.Bad_input msg -> Alcotest.(check bool) msg true (contains msg "at most 100000")

(* An uneven problem has no collectives plan: a clean rejection from the
   collectives-only checker and planner (found by test-cli-robust). *)
let uneven_collectives () =
  let p = Problem.make ~mesh:"{x:4}" ~from:"[{x}6]" ~to_:"[6]" ~dtype:None in
  (match Planfile.check p "all_gather(0)\n" with
   | _ -> Alcotest.fail "checked collectives on an uneven problem"
   | exception Report.Rejected msg -> Alcotest.(check bool) msg true (contains msg "--from is uneven"));
  match Planning.plan p with
  | _ -> Alcotest.fail "planned collectives on an uneven problem"
  | exception Front.Bad_input msg -> Alcotest.(check bool) msg true (contains msg "--from is uneven")

let bad_inputs =
  [ rejects "unknown axis" "{x:2}" "[1{z}2]" "[2]" "axis z";
    rejects "repeated axis across dims" "{x:2}" "[1{x}2, 1{x}2]" "[2, 2]" "used by dims 0 and 1";
    rejects "local size not the ceil block" "{x:4}" "[1{x}6]" "[6]" "stated local size 1, but the ceil block of 6 over |x| = 4 is 2";
    rejects "stated local size" "{x:2}" "[2{x}6]" "[6]" "stated local size 2, but 6 / |x| = 3";
    rejects "different global shapes" "{x:2}" "[2]" "[4]" "global shapes differ";
    rejects "different ranks" "{x:2}" "[2]" "[2, 1]" "1 dimensions but --to has 2";
    rejects "empty mesh" "{}" "[2]" "[2]" "empty";
    rejects "zero axis" "{x:0}" "[2]" "[2]" "size 0";
    rejects "zero extent" "{x:2}" "[0]" "[0]" "global size 0";
    rejects "too many elements" "{x:2}" "[33554432, 33554432]" "[33554432, 33554432]" "2^50";
    rejects "too many devices" "{x:256, y:512}" "[2]" "[2]" "65536";
    rejects "too many devices, product beyond 63 bits" "{x:65536, y:1125899906842623}" "[2]" "[2]" "65536";
    rejects "dtype clash" "{x:2}" "f32[2]" "i64[2]" "f32 but --to says i64";
    rejects "too many axes"
      ("{" ^ String.concat ", " (List.init 65 (Printf.sprintf "a%d:1")) ^ "}") "[2]" "[2]" "65 axes; at most 64";
    rejects "too many dimensions" "{x:2}"
      ("[" ^ String.concat ", " (List.init 65 (fun _ -> "1")) ^ "]")
      ("[" ^ String.concat ", " (List.init 65 (fun _ -> "1")) ^ "]") "65 dimensions; at most 64";
    Alcotest.test_case "plan too long" `Quick plan_too_long;
    Alcotest.test_case "uneven problem, collectives" `Quick uneven_collectives ]

(* ---- reports: numbers worked out by hand ---- *)

(* Worked example: rank (x,y) = 3x+y holds [3x, 3x+3) and must end with
   [2y, 2y+2); the target elements it lacks: 0,1,2,2,1,0 for ranks 0..5. *)
let lower_bounds () =
  let r, _ = Planning.plan (worked ()) in
  Alcotest.(check int) "lower bound, busiest rank" 2 r.lb_max;
  Alcotest.(check int) "lower bound, total" 6 r.lb_total;
  Alcotest.(check int) "peak = max(3, 2)" 3 r.peak;
  Alcotest.(check int) "global size" 6 r.global_elems

let plan_round_trip () =
  List.iter
    (fun p ->
      let r, guarantees = Planning.plan p in
      let text = Report.text ~title:"t" ~guarantees r in
      let r' = Planfile.check p text in
      let show (r : Report.t) = List.map (fun (s : Report.step) -> Front.show_collective r.env s.coll) r.steps in
      Alcotest.(check (list string)) "same steps" (show r) (show r');
      Alcotest.(check int) "same peak" r.peak r'.peak;
      Alcotest.(check int) "same busiest-rank traffic" r.recv_busiest r'.recv_busiest)
    [ worked (); subaxes (); problem "{x:2, y:4}" "[16{x}32, 64{y}256]" "[8{y}32, 128{x}256]";
      problem "{x:2, y:2, z:3}" "[{x,z}12, {y}4]" "[{z}12, {x,y}4]" ]

(* The model document: [2{a}6] -> [1{b}6] on {a:3, b:6} needs b split into
   b.0 (3) and b.1 (2). *)
let subaxis_names () =
  let r, guarantees = Planning.plan (subaxes ()) in
  Alcotest.(check (list (pair string int))) "refined mesh" [ ("a", 3); ("b.0", 3); ("b.1", 2) ]
    (List.map (fun (a : Front.axis_info) -> (a.name, a.size)) r.env.axes);
  Alcotest.(check bool) "refine_holds cited" true (List.mem_assoc "refine_holds" guarantees);
  Alcotest.(check int) "peak stays at |src|" 2 r.peak

let hand_plan_rejected_at_line () =
  match Planfile.check (worked ()) "# header\n\ndyn_slice(0, y)\nall_gather(0)\nall_gather(0)\nall_gather(0)\n" with
  | _ -> Alcotest.fail "accepted"
  | exception Report.Rejected msg ->
      Alcotest.(check bool) (msg ^ " names line 6") true (contains msg "line 6: all_gather(0)");
      Alcotest.(check bool) "says why" true (contains msg "not sharded")

(* 1,000,000 comment and blank lines before the worked plan: read in a loop,
   so neither the stack nor the time grows with the line count; the line
   numbers still count every line. *)
let many_blank_lines () =
  let padding = String.concat "" (List.init 500_000 (fun _ -> "# comment\n\n")) in
  let r = Planfile.check (worked ()) (padding ^ "dyn_slice(0, y)\nall_permute([1{y,x}6])\nall_gather(0)\n") in
  Alcotest.(check int) "three steps" 3 (List.length r.steps);
  match Planfile.check (worked ()) (padding ^ "all_reduce(0)\n") with
  | _ -> Alcotest.fail "accepted an unknown collective"
  | exception Front.Bad_input msg -> Alcotest.(check bool) (msg ^ " names line 1000001") true (contains msg "line 1000001,")

let json_schema () =
  let r, guarantees = Planning.plan (subaxes ()) in
  let j = Json.report ~command:"plan" ~guarantees r in
  let open Yojson.Safe.Util in
  List.iter
    (fun k -> Alcotest.(check bool) ("int field " ^ k) true (match member k j with `Int _ -> true | _ -> false))
    [ "peak_elems"; "src_elems"; "tgt_elems"; "lower_bound_recv_max"; "launches"; "recv_elems_max" ];
  let steps = to_list (member "steps" j) in
  Alcotest.(check (list string)) "ops" [ "dyn_slice"; "all_permute" ] (List.map (fun s -> to_string (member "op" s)) steps);
  Alcotest.(check string) "slice axis is a sub-axis" "b.1" (to_string (member "axis" (List.hd steps)));
  Alcotest.(check (list string)) "refined mesh names" [ "a"; "b.0"; "b.1" ]
    (List.map (fun a -> to_string (member "name" a)) (to_list (member "refined_mesh" j)))

(* Under [1{x,y}6] rank r holds element r; under [1{y,x}6] rank 3x+y must
   hold element 2y+x, so it receives from rank 2y+x. *)
let permute_table () =
  let r, guarantees = Planning.plan (worked ()) in
  let hdr = Cxx.print (Emit.collectives_header ~backend:Emit.Mpi ~name:"w" r ~guarantees) in
  Alcotest.(check bool) "recv_from table" true (contains hdr "kRecvFrom1[kDevices] = {0, 2, 4, 1, 3, 5};");
  Alcotest.(check bool) "x-axis group (stride 3, size 2) for the gather" true (contains hdr "redist::Group{3, 2}");
  Alcotest.(check bool) "slice over y (stride 1, size 3)" true (contains hdr "::redist::dyn_slice(mesh, ::redist::Group{1, 3}")

(* The worked example's plan writes ping (step 0, 1 f32) and pong (step 1,
   1 f32), and its gather over dim 0 needs no scratch: 8 bytes, which
   run reports and the header states. *)
let workspace_stated () =
  let r, guarantees = Planning.plan (worked ()) in
  Alcotest.(check int) "workspace bytes" 8 (Redist_core.workspace_bytes (Lazy.force r.calls));
  let hdr = Cxx.print (Emit.collectives_header ~backend:Emit.Mpi ~name:"w" r ~guarantees) in
  Alcotest.(check bool) "header comment" true (contains hdr "//   = ping 4 + pong 4 + scratch 0.");
  Alcotest.(check bool) "constant" true (contains hdr "kWorkspaceBytes = 8;")

(* Issue 15's example: during step 1 a rank holds its 128 B source, a 256 B
   intermediate, the 1,024 B destination and 1,024 B of scratch. *)
let live_bytes_stated () =
  let p = Problem.make ~mesh:"{x:4, y:2}" ~from:"[16, 2{x,y}16]" ~to_:"[16, 16]" ~dtype:(Some "f32") in
  let r, guarantees = Planning.plan p in
  Alcotest.(check int) "live bytes" 2432 (Lazy.force r.live_bytes);
  Alcotest.(check int) "workspace bytes" 1280 (Redist_core.workspace_bytes (Lazy.force r.calls));
  let hdr = Cxx.print (Emit.collectives_header ~backend:Emit.Mpi ~name:"w" r ~guarantees) in
  Alcotest.(check bool) "header comment" true (contains hdr "// Live bytes per rank: 2432 (proven: lower_live_bytes)");
  Alcotest.(check bool) "constant" true (contains hdr "kLiveBytes = 2432;")

(* A pending-sum header prints the extracted lowering's figures: for
   [8, 8] sum{x,y} -> [8, 8] sum{y} on {x:2, y:2} in f32, the first
   reduce_scatter holds the 256 B source and destination, its 128 B output
   and 256 B of scratch: 896 B; the workspace is 128 + 64 B of reduction
   arrays, 256 B of their scratch and the gathers' 128 B ping. *)
let sums_live_bytes_stated () =
  let p = Problem.make ~mesh:"{x:2, y:2}" ~from:"[8, 8] sum{x,y}" ~to_:"[8, 8] sum{y}" ~dtype:(Some "f32") in
  let hdr = Cxx.print (Emit_sums.header ~command:[ "redist" ] ~name:"s" (Sumplan.choose p)) in
  List.iter
    (fun line -> Alcotest.(check bool) line true (contains hdr line))
    [ "// Live bytes per rank: 896 (proven: lower_sums_live_bytes)"; "kLiveBytes = 896;"; "kWorkspaceBytes = 576;";
      "kPre0Bytes = 128;"; "kPre1Bytes = 64;"; "kReduceScratchBytes = 256;"; "kCollectivesOffset = 448;";
      "reduce_scatter(mesh, ::redist::Group{2, 2}, kDtype, kStepOp, ::redist::Layout{2, {8, 8}, 4}, 0, src, 256, ws, 128," ]

(* The header of gen --in-place prints the extracted schedule: one table
   line per move, in the schedule's order, with its places and length,
   and the plan's live bytes and rounds as constants. *)
let in_place_tables () =
  let p =
    Problem.make_placed ~meshes:(Problem.One "{x:4}") ~strategy:Redist_core.StratAuto ~from:"[{x}8, 8]"
      ~to_:"[8, {x}8]" ~dtype:(Some "f32")
  in
  let r = Inplaceplan.plan { (Planning.default_settings p) with budget = Some 80 } p in
  let h = Emit_inplace.header ~command:[ "redist" ] ~name:"ip" r in
  let hdr = Cxx.print h in
  let area = function Redist_core.Buf -> "kBuf" | Redist_core.Stage -> "kStage" in
  let place (x : Redist_core.place) = Printf.sprintf "{%d, %s, %d}" x.pl_rank (area x.pl_area) x.pl_off in
  let moves =
    List.concat_map
      (List.map (fun (mv : Redist_core.move) -> Printf.sprintf "    {%s, %s, %d}," (place mv.mv_from) (place mv.mv_to) mv.mv_len))
      r.schedule
  in
  let printed = List.filter (fun l -> String.length l > 6 && String.sub l 0 6 = "    {{") (String.split_on_char '\n' hdr) in
  Alcotest.(check (list string)) "moves" moves printed;
  Alcotest.(check int) "rounds" (List.length r.schedule) (Cxx.int_constant h "kRounds");
  Alcotest.(check int) "live bytes" 80 (Cxx.int_constant h "kLiveBytes");
  Alcotest.(check int) "staging bytes" 16 (Cxx.int_constant h "kStagingBytes");
  Alcotest.(check bool) "theorems" true (contains hdr "//   inplace_sound: ")

(* The driver's result file: numbers read back as data, an error object
   raised as a tool error (exit 4) with the runtime's message, a missing
   field named. *)
let run_result_file () =
  let o =
    Run.outcome_of_json
      (Yojson.Safe.from_string
         {|{"checked": 12, "mismatches": 3, "box_disagreements": 1, "off_bound": 2, "recv_max": 5, "guards_intact": true, "news": 0, "own_mallocs": 0, "mallocs": 7, "median_s": 5.000000000e-01, "peak_bytes": 12, "used_ping": 4, "used_pong": 4, "used_scratch": 0, "heap_growth": 104}|})
  in
  Alcotest.(check (list int)) "fields" [ 12; 3; 1; 2; 5; 0; 7; 12; 4; 4; 0; 104 ]
    [ o.checked; o.mismatches; o.box_disagreements; o.off_bound; o.recv_max; o.news; o.mallocs; o.peak_bytes;
      o.used_ping; o.used_pong; o.used_scratch; o.heap_growth ];
  Alcotest.(check (float 0.)) "median" 0.5 o.median_s;
  Alcotest.(check bool) "guards" true o.guards_intact;
  let tool_error what json expected =
    match Run.outcome_of_json (Yojson.Safe.from_string json) with
    | _ -> Alcotest.failf "%s was accepted" what
    | exception Run.Tool_error msg -> Alcotest.(check string) what expected msg
  in
  tool_error "error object" {|{"error": "Mesh::create: communicator has 4 ranks but the mesh has 6 devices"}|}
    "the runtime refused the run: Mesh::create: communicator has 4 ranks but the mesh has 6 devices";
  tool_error "missing field"
    {|{"checked": 12, "box_disagreements": 1, "off_bound": 2, "recv_max": 5, "guards_intact": true, "news": 0, "own_mallocs": 0, "mallocs": 7, "median_s": 0.5, "peak_bytes": 12, "used_ping": 4, "used_pong": 4, "used_scratch": 0, "heap_growth": 0}|}
    "the driver's result lacks mismatches"

(* Byte totals past 2^62: 2^60 * 16 = 2^64 exactly, and a carry into a new
   digit. *)
let bytes_past_int_range () =
  Alcotest.(check string) "2^64" "18446744073709551616" (Bounds.mul_decimal (1 lsl 60) 16);
  Alcotest.(check string) "small" "48" (Bounds.mul_decimal 3 16);
  Alcotest.(check string) "carry" "9999999999999999990" (Bounds.mul_decimal 999999999999999999 10)

let bad_names () =
  List.iter
    (fun n ->
      match Emit.check_name n with
      | () -> Alcotest.fail ("accepted namespace " ^ n)
      | exception Front.Bad_input _ -> ())
    [ ""; "1a"; "a-b"; "_x"; "a__b"; "class"; "co_await"; "concept"; "requires"; "NULL"; "EOF"; "errno";
      "linux"; "unix"; "MPI_COMM_WORLD"; "OMPI_SKIP_MPICXX"; String.make 130_000 'a' ^ "-" ]

(* Every theorem the tool cites exists in proofs/. *)
let cited_theorems_exist () =
  let rec sources dir =
    List.concat_map
      (fun f ->
        let path = Filename.concat dir f in
        if Sys.is_directory path then sources path else if Filename.check_suffix f ".v" then [ path ] else [])
      (Array.to_list (Sys.readdir dir))
  in
  let text =
    String.concat "\n"
      (List.map
         (fun path ->
           let ic = open_in_bin path in
           Fun.protect ~finally:(fun () -> close_in ic) (fun () -> really_input_string ic (in_channel_length ic)))
         (sources "proofs"))
  in
  List.iter
    (fun (name, _) ->
      Alcotest.(check bool) (name ^ " is a Theorem or Lemma in proofs/") true
        (contains text ("Theorem " ^ name ^ " ") || contains text ("Lemma " ^ name ^ " ")))
    (Guarantees.for_plan ~refined:true @ Guarantees.sums_choice @ Guarantees.in_place @ Guarantees.within
    @ List.concat_map (fun pending_target -> List.concat_map (Guarantees.for_operation ~pending_target) Dtype.[ Sum; Prod; Max; Min; Avg ])
        [ false; true ]
    @ List.concat_map
        (fun (from, to_) ->
          match Problem.make_any ~names:Problem.flag_names ~meshes:(Problem.One "{x:2, y:2}") ~strategy:Redist_core.StratAuto ~from ~to_ ~dtype:(Some "f32") with
          | Problem.Composed c -> Cutplan.guarantees c
          | Problem.Plain _ -> Alcotest.fail "a composed problem read as a plain one")
        [ ("[{x}%2 5]", "[{y}5]"); ("[{x}%2 5] max{y}", "[{x}5] max{y}"); ("[{x}%2 5] avg{y}", "[{x}{y}5]");
          ("[{x}%2 5] avg{y}", "[{x}5] avg{y}") ])

let () =
  Tap.run "cli"
    [ ( "parser",
        [ Alcotest.test_case "error column" `Quick parse_error_column;
          Alcotest.test_case "whitespace" `Quick whitespace_tolerant;
          Alcotest.test_case "2^50 limit" `Quick number_too_large ] );
      ("front end", bad_inputs);
      ( "reports",
        [ Alcotest.test_case "lower bounds" `Quick lower_bounds;
          Alcotest.test_case "plan round trip" `Quick plan_round_trip;
          Alcotest.test_case "sub-axis names" `Quick subaxis_names;
          Alcotest.test_case "rejection line" `Quick hand_plan_rejected_at_line;
          Alcotest.test_case "a million blank lines" `Quick many_blank_lines;
          Alcotest.test_case "json schema" `Quick json_schema ] );
      ( "emitter",
        [ Alcotest.test_case "permute table and groups" `Quick permute_table;
          Alcotest.test_case "bad namespaces" `Quick bad_names;
          Alcotest.test_case "bytes past 2^62" `Quick bytes_past_int_range;
          Alcotest.test_case "workspace stated" `Quick workspace_stated;
          Alcotest.test_case "live bytes stated" `Quick live_bytes_stated;
          Alcotest.test_case "in-place tables" `Quick in_place_tables;
          Alcotest.test_case "run's result file" `Quick run_result_file;
          Alcotest.test_case "pending-sum live bytes stated" `Quick sums_live_bytes_stated ] );
      ("proofs", [ Alcotest.test_case "cited theorems exist" `Quick cited_theorems_exist ]) ]
