(* Hybrids (the exchange and a collective through an intermediate layout,
   [Cost.hybrid_candidates]) on random problems, over the extracted
   semantics: every candidate the verified checker accepts, executed
   ([xexec]) and lowered then interpreted ([run_program] of [lower_splan]),
   leaves every element of every rank's target box right; its reported
   traffic is the execution's and never below the bound; its predicted time
   under random hosts is the sum of its parts'. *)
open Redist_core

let seed = 20261123
let count = 1_000

let gen_mesh = Mesh_gen.mesh ~max_axes:3 ~names:6 ~max_devices:8 ~sizes:[ 1; 2; 2; 3; 4 ]

(* Each mesh axis goes to one dimension or to none, in a random order. *)
let gen_axes m rank =
  let open QCheck.Gen in
  shuffle_l m >>= fun axes ->
  list_repeat (List.length axes) (int_range 0 rank) >>= fun where ->
  return (List.init rank (fun d -> List.concat (List.map2 (fun (x, _) w -> if w = d then [ x ] else []) axes where)))

(* The target on a mesh at world rank 0, every extent a multiple of its
   size (so every type over it is even, the intermediates included); the
   source on the same mesh, or on another mesh placed anywhere (often
   uneven there). *)
let gen_problem =
  let open QCheck.Gen in
  gen_mesh >>= fun m ->
  int_range 1 2 >>= fun rank ->
  list_repeat rank (int_range 1 2) >>= fun ks ->
  let ns = List.map (fun k -> k * mesh_size m) ks in
  gen_axes m rank >>= fun b ->
  frequency [ (2, return None); (1, gen_mesh >>= fun m' -> Mesh_gen.placed ~spare:3 m' >>= fun pm -> return (Some pm)) ]
  >>= fun other ->
  let pm = match other with Some pm -> pm | None -> placed_at m 0 in
  gen_axes pm.pm_mesh rank >>= fun a ->
  return ({ ly_mesh = pm; ly_ty = List.combine a ns }, { ly_mesh = placed_at m 0; ly_ty = List.combine b ns })

let world s t = 1 + List.fold_left max 0 (s.ly_mesh.pm_ranks @ t.ly_mesh.pm_ranks)

(* Every element is its own global index; [] outside the source mesh. *)
let labels s : int list state = fun r l -> match pl_box s r with Some sb -> box_global sb l | None -> []

let link latency bw = { lk_latency_ns = latency; lk_bytes_per_us = bw }

(* [None] when the accepted hybrid [sp] is right, else why not. *)
let judge st s t sp rep =
  let ranks = List.init (world s t) Fun.id in
  let every_target_element (got : int list state) =
    List.for_all
      (fun r ->
        match pl_box t r with
        | None -> true
        | Some tb -> List.for_all (fun l -> got r l = box_global tb l) (box_indices (box_shape tb)))
      ranks
  in
  let bs = run_program (lower_splan 4 s t sp) (initial_buffers (labels s) (fun _ _ -> [ -1 ])) in
  let source_kept =
    List.for_all
      (fun r ->
        match pl_box s r with
        | None -> true
        | Some sb -> List.for_all (fun l -> bs BSrc r l = box_global sb l) (box_indices (box_shape sb)))
      ranks
  in
  let in_target r = List.mem r t.ly_mesh.pm_ranks in
  let pf =
    { pf_same_host = link (Random.State.int st 2000) (1 + Random.State.int st 50_000);
      pf_across_hosts = link (Random.State.int st 5000) (1 + Random.State.int st 50_000);
      pf_copy_bytes_per_us = 1 + Random.State.int st 50_000; pf_single_copy = None }
  in
  let hosts = RanksPerHost (1 + Random.State.int st 4) in
  if not (every_target_element (xexec s t sp (labels s))) then Some "xexec: a wrong element"
  else if not (every_target_element (bs BDst)) then Some "lowered: a wrong element in the destination"
  else if not source_kept then Some "lowered: the source changed"
  else if not (List.for_all (fun r -> not (in_target r) || rep.xr_recv r = xreceived s t sp r) ranks) then
    Some "reported traffic is not the execution's"
  else if not (List.for_all (fun r -> not (in_target r) || rep.xr_recv r >= recv_lower_bound s t r) ranks) then
    Some "traffic below the bound"
  else
    match sp with
    | ByThen (mid, a, b) ->
        if predicted_ns pf hosts 4 s t sp <> predicted_ns pf hosts 4 s mid a + predicted_ns pf hosts 4 mid t b then
          Some "predicted time is not the sum of the parts'"
        else None
    | _ -> Some "not a hybrid"

let hybrids_right () =
  let rand = Random.State.make [| seed |] in
  let accepted = ref 0 and bad = ref [] in
  for i = 1 to count do
    let s, t = QCheck.Gen.generate1 ~rand gen_problem in
    List.iter
      (fun sp ->
        match xcheck s t sp with
        | Error _ -> ()
        | OK rep -> (
            incr accepted;
            match judge rand s t sp rep with
            | None -> ()
            | Some why -> bad := Printf.sprintf "problem %d: %s" i why :: !bad))
      (hybrid_candidates s t)
  done;
  Printf.printf "%d hybrids accepted over %d problems\n%!" !accepted count;
  List.iteri (fun i b -> if i < 5 then print_endline b) (List.rev !bad);
  (* Enough hybrids are accepted for the property to say something. *)
  Alcotest.(check bool) "at least one accepted hybrid per problem on average" true (!accepted >= count);
  Alcotest.(check int) "wrong hybrids" 0 (List.length !bad)

let () =
  Tap.run "hybrid"
    [ ("random",
        [ Alcotest.test_case (Printf.sprintf "%d random problems: every accepted hybrid right on every element" count) `Quick
            hybrids_right ] ) ]
