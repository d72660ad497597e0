(* The extracted checker on the model document's worked example and on plans
   it must reject, each for its own reason. *)
open Redist_core

let x = 0 and y = 1
let mesh_xy = [ (x, 2); (y, 3) ]            (* {x:2, y:3} *)

let src = [ ([ x ], 6) ]                     (* [3{x}6] *)
let tgt = [ ([ y ], 6) ]                     (* [2{y}6] *)
let sliced = [ ([ x; y ], 6) ]               (* [1{x,y}6] *)
let permuted = [ ([ y; x ], 6) ]             (* [1{y,x}6] *)

let worked_plan = [ DynSlice (0, y); AllPermute permuted; AllGather 0 ]

let accepted () =
  match check mesh_xy src tgt worked_plan with
  | Error _ -> Alcotest.fail "the worked example is rejected"
  | OK r ->
      Alcotest.(check int) "peak = max(|src|, |tgt|) = 3" 3 r.rp_peak;
      let sizes = List.map (fun s -> s.sr_local_size) r.rp_steps in
      Alcotest.(check (list int)) "local sizes along the plan" [ 1; 1; 2 ] sizes;
      let types = List.map (fun s -> s.sr_type) r.rp_steps in
      Alcotest.(check bool) "types along the plan" true (types = [ sliced; permuted; tgt ]);
      (* Ranks are row-major, rank = 3*c[x] + c[y].  Under [1{x,y}6] rank r
         holds element r; under [1{y,x}6] it must hold 2*c[y] + c[x], which
         only ranks 0 and 5 already have. *)
      let permute = List.nth r.rp_steps 1 in
      let recv = List.init 6 permute.sr_recv in
      Alcotest.(check (list int)) "permute traffic per rank" [ 0; 1; 1; 1; 1; 0 ] recv;
      let gather = List.nth r.rp_steps 2 in
      Alcotest.(check (list int)) "gather traffic per rank" [ 1; 1; 1; 1; 1; 1 ]
        (List.init 6 gather.sr_recv);
      let slice = List.nth r.rp_steps 0 in
      Alcotest.(check (list int)) "slice receives nothing" [ 0; 0; 0; 0; 0; 0 ]
        (List.init 6 slice.sr_recv)

let rejects name plan ~src ~tgt expected =
  Alcotest.test_case name `Quick (fun () ->
      match check mesh_xy src tgt plan with
      | OK _ -> Alcotest.fail "accepted a plan that must be rejected"
      | Error e -> Alcotest.(check bool) "rejection reason" true (e = expected))

let z = 2
let mesh_4 = [ (x, 2); (y, 2); (z, 4) ]

let bad_cases =
  [ rejects "slice over an unknown axis" [ DynSlice (0, 7) ] ~src ~tgt
      (StepFailed (0, AxisNotInMesh 7));
    rejects "slice over an axis already used" [ DynSlice (0, x) ] ~src ~tgt
      (StepFailed (0, AxisInUse x));
    rejects "slice that does not divide" [ DynSlice (0, y); DynSlice (0, y) ]
      ~src:[ ([], 6) ] ~tgt (StepFailed (1, AxisInUse y));
    rejects "slice of extent 2 by 3" [ DynSlice (1, y) ]
      ~src:[ ([ x ], 6); ([], 2) ] ~tgt:[ ([ x ], 6); ([], 2) ]
      (StepFailed (0, SliceNotDividing (1, y)));
    rejects "gather of an unsharded dimension" [ AllGather 0 ] ~src:[ ([], 6) ] ~tgt
      (StepFailed (0, GatherUnsharded 0));
    rejects "dimension out of range" [ AllGather 1 ] ~src ~tgt
      (StepFailed (0, DimOutOfRange 1));
    rejects "permute between different local shapes" [ AllPermute tgt ] ~src ~tgt
      (StepFailed (0, PermuteLocalShape));
    rejects "permute to an ill-formed type" [ AllPermute [ ([ x; x ], 6) ] ] ~src ~tgt
      (StepFailed (0, PermuteIllFormed));
    rejects "plan that stops short" [ DynSlice (0, y) ] ~src ~tgt (WrongFinalType sliced);
    rejects "source not well-formed" [] ~src:[ ([ x ], 5) ] ~tgt BadSource;
    rejects "global shapes differ" [] ~src ~tgt:[ ([ y ], 12) ] GlobalShapeMismatch;
  ]

let mesh_errors () =
  Alcotest.(check bool) "repeated axis" true
    (check [ (x, 2); (x, 3) ] src tgt [] = Error BadMesh);
  Alcotest.(check bool) "size 0" true (check [ (x, 0) ] [ ([], 6) ] [ ([], 6) ] [] = Error BadMesh)

let all_to_all () =
  (* {x:2, y:2, z:4}: [2{x}4, 4{z}16] -> all_to_all(0,1) moves x to dim 1 *)
  let s = [ ([ x ], 4); ([ z ], 16) ] and t = [ ([], 4); ([ z; x ], 16) ] in
  (match check mesh_4 s t [ AllToAll (0, 1) ] with
   | OK r ->
       Alcotest.(check int) "peak" 8 r.rp_peak;
       let step = List.hd r.rp_steps in
       Alcotest.(check int) "receives half" 4 (step.sr_recv 0)
   | Error _ -> Alcotest.fail "all_to_all rejected");
  Alcotest.(check bool) "all_to_all within one dimension" true
    (check mesh_4 s t [ AllToAll (0, 0) ] = Error (StepFailed (0, SameDims 0)));
  Alcotest.(check bool) "all_to_all that does not divide" true
    (check mesh_4 [ ([ z ], 4); ([ x ], 2) ] [ ([], 4); ([], 2) ] [ AllToAll (0, 1) ]
     = Error (StepFailed (0, AllToAllNotDividing (1, z))))

let () =
  Tap.run "checker"
    [ ("worked example", [ Alcotest.test_case "accepted" `Quick accepted ]);
      ("rejections", bad_cases @ [ Alcotest.test_case "bad meshes" `Quick mesh_errors ]);
      ("all_to_all", [ Alcotest.test_case "typing and traffic" `Quick all_to_all ]) ]
