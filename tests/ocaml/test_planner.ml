(* The extracted planner, confirmed by the extracted checker: on random
   problems (accepted, ends at the refined target, peak <= max(|src|,|tgt|),
   normal form, fresh sub-axis names), on fixed examples, and against an
   exhaustive search over all collective sequences on tiny meshes. *)
open Redist_core

let seed = 20211203

(* ---- problems ---------------------------------------------------------- *)

let pp_ty t =
  "["
  ^ String.concat ", "
      (List.map
         (fun (xs, n) ->
           if xs = [] then string_of_int n
           else Printf.sprintf "{%s}%d" (String.concat "," (List.map string_of_int xs)) n)
         t)
  ^ "]"

let pp_mesh m =
  "{" ^ String.concat ", " (List.map (fun (x, s) -> Printf.sprintf "%d:%d" x s) m) ^ "}"

let pp_problem (m, s, t) = Printf.sprintf "%s: %s -> %s" (pp_mesh m) (pp_ty s) (pp_ty t)

let rec gcd a b = if b = 0 then a else gcd b (a mod b)
let lcm a b = a / gcd a b * b
let size_of m xs = List.fold_left (fun p x -> p * List.assoc x m) 1 xs

(* Up to 6 axes and 64 devices, sizes with factors 2, 3 and 5 (size 1 too);
   axis names drawn from 0..11 so that they are neither dense nor ordered. *)
let gen_mesh = Mesh_gen.mesh ~max_axes:6 ~names:12 ~max_devices:64 ~sizes:[ 1; 2; 2; 2; 3; 3; 4; 5; 6; 8 ]

(* Each mesh axis goes to one dimension or to none; dimensions list their
   axes in a random order. *)
let gen_layout m rank =
  let open QCheck.Gen in
  shuffle_l m >>= fun axes ->
  list_repeat (List.length axes) (int_range 0 rank) >>= fun where ->
  return
    (List.init rank (fun d ->
         List.concat (List.map2 (fun (x, _) w -> if w = d then [ x ] else []) axes where)))

let gen_problem =
  let open QCheck.Gen in
  gen_mesh >>= fun m ->
  int_range 1 4 >>= fun rank ->
  gen_layout m rank >>= fun a ->
  gen_layout m rank >>= fun b ->
  list_repeat rank (oneofl [ 1; 1; 2; 3; 5 ]) >>= fun extra ->
  let ns =
    List.map2 (fun (xa, xb) k -> lcm (size_of m xa) (size_of m xb) * k) (List.combine a b) extra
  in
  return (m, List.combine a ns, List.combine b ns)

(* ---- what every planner result must satisfy ----------------------------- *)

let max_size m s t = max (local_size m s) (local_size m t)

(* [None] when the result is good, else why not. *)
(* [fallback] also asks whether the choice fell back to the easy plan (it
   runs the choice a second time, so only for some problems). *)
let judge ?(fallback = false) (m, s, t) =
  let rf, p = planner m s t in
  let m' = refine_mesh rf m and s' = refine_ty rf s and t' = refine_ty rf t in
  let old_names = List.map fst m in
  let top = List.fold_left max 0 old_names in
  let fresh_ok =
    List.for_all (fun (x, _) -> List.mem x old_names || x > top) m'
  in
  if not (refine_ok m rf) then Some "refinement rejected"
  else if not fresh_ok then Some "a sub-axis name is not above every mesh axis"
  else if fallback && not (planner_in_normal_form m s t) then Some "fell back to the easy plan"
  else if not (normal_form p) then Some "not in normal form"
  else
    match check m' s' t' p with
    | Error _ -> Some "checker rejects the plan"
    | OK rep ->
        let final = List.fold_left (fun _ st -> st.sr_type) s' rep.rp_steps in
        if final <> t' then Some "does not end at the refined target"
        else if rep.rp_peak > max_size m s t then
          Some (Printf.sprintf "peak %d > max(|src|,|tgt|) = %d" rep.rp_peak (max_size m s t))
        else None

let random_problems () =
  let rand = Random.State.make [| seed |] in
  Printf.printf "random problems: seed %d\n%!" seed;
  let n = 10_000 in
  let bad = ref [] in
  for i = 1 to n do
    let ((m, s, t) as pb) = QCheck.Gen.generate1 ~rand gen_problem in
    assert (mesh_wf m && ty_wf m s && ty_wf m t);
    match judge ~fallback:(i mod 10 = 0) pb with
    | None -> ()
    | Some why -> bad := (pp_problem pb ^ ": " ^ why) :: !bad
  done;
  List.iteri (fun i b -> if i < 5 then print_endline b) (List.rev !bad);
  Alcotest.(check int) (Printf.sprintf "bad results among %d problems" n) 0 (List.length !bad)

(* ---- fixed examples ------------------------------------------------------ *)

let plan_of m s t =
  let rf, p = planner m s t in
  let m' = refine_mesh rf m in
  match check m' (refine_ty rf s) (refine_ty rf t) p with
  | OK rep -> (rf, m', p, rep)
  | Error _ -> Alcotest.fail ("checker rejects the plan for " ^ pp_problem (m, s, t))

(* The model document's example: [2{a}6] -> [1{b}6] on {a:3, b:6} has no
   normal-form plan without a sub-axis; with b = b_hi:3 x b_lo:2 it is one
   slice by b_lo and one permute. *)
let needs_sub_axis () =
  let a = 0 and b = 1 in
  let m = [ (a, 3); (b, 6) ] in
  let rf, m', p, rep = plan_of m [ ([ a ], 6) ] [ ([ b ], 6) ] in
  Alcotest.(check bool) "the mesh is refined" true (rf <> []);
  Alcotest.(check int) "peak = max(2, 1)" 2 rep.rp_peak;
  (match p with
   | [ DynSlice (0, x); AllPermute _ ] ->
       Alcotest.(check int) "the slice is by a sub-axis of size 2" 2 (axis_size m' x);
       Alcotest.(check bool) "the sub-axis is new" true (x > b)
   | _ -> Alcotest.fail "expected one slice and one permute");
  Alcotest.(check bool) "no plan on the unrefined mesh stays within 2 (gather needs 6)" true
    (match check m [ ([ a ], 6) ] [ ([ b ], 6) ] [ AllGather 0; DynSlice (0, b) ] with
     | OK r -> r.rp_peak = 6
     | Error _ -> false)

(* The worked example of the model document: slice, permute, gather. *)
let worked_example () =
  let x = 0 and y = 1 in
  let m = [ (x, 2); (y, 3) ] in
  let rf, _, p, rep = plan_of m [ ([ x ], 6) ] [ ([ y ], 6) ] in
  Alcotest.(check bool) "no refinement" true (rf = []);
  Alcotest.(check int) "peak 3" 3 rep.rp_peak;
  Alcotest.(check int) "three steps" 3 (List.length p);
  Alcotest.(check bool) "slice, permute, gather" true
    (match p with [ DynSlice _; AllPermute _; AllGather _ ] -> true | _ -> false)

(* A whole axis of size 4 is gathered at once, not as two halves. *)
let whole_axis_gather () =
  let x = 0 in
  let rf, _, p, _ = plan_of [ (x, 4) ] [ ([ x ], 16) ] [ ([], 16) ] in
  Alcotest.(check bool) "no refinement" true (rf = []);
  Alcotest.(check bool) "one gather" true (p = [ AllGather 0 ])

(* An all-to-all is needed when there is no spare axis:
   [2, 1{a}2] -> [1{a}2, 2] on {a:2}. *)
let needs_all_to_all () =
  let a = 0 in
  let _, _, p, rep = plan_of [ (a, 2) ] [ ([], 2); ([ a ], 2) ] [ ([ a ], 2); ([], 2) ] in
  Alcotest.(check int) "peak 2" 2 rep.rp_peak;
  Alcotest.(check bool) "one all_to_all" true (p = [ AllToAll (1, 0) ])

(* Millions of devices and a large prime axis: the planner must neither
   overflow the stack nor enumerate devices needlessly. *)
let large_meshes () =
  let cases =
    [ ([ (0, 1024); (1, 1024) ], [ ([ 0 ], 1 lsl 20); ([ 1 ], 1 lsl 20) ],
       [ ([ 1 ], 1 lsl 20); ([ 0 ], 1 lsl 20) ]);
      ([ (0, 8); (1, 8); (2, 16); (3, 16) ], [ ([ 0; 1 ], 1024); ([ 2 ], 1024); ([], 64) ],
       [ ([ 3 ], 1024); ([ 1; 0 ], 1024); ([ 2 ], 64) ]);
      ([ (0, 1_000_003); (1, 2) ], [ ([ 0 ], 2_000_006) ], [ ([ 1 ], 2_000_006) ]) ]
  in
  List.iter
    (fun pb -> Alcotest.(check (option string)) (pp_problem pb) None (judge ~fallback:true pb))
    cases

let identity () =
  let m = [ (0, 2); (1, 3) ] and t = [ ([ 1 ], 6); ([ 0 ], 4) ] in
  let _, _, p, _ = plan_of m t t in
  Alcotest.(check int) "empty plan" 0 (List.length p)

(* ---- exhaustive search on tiny meshes ------------------------------------ *)

(* All well-formed types of global shape [ns] over the axes of [m]. *)
let all_types m ns =
  let axes = List.map fst m in
  (* every way to put each axis in one dimension (or none), in every order *)
  let rec place remaining dims =
    match remaining with
    | [] -> [ dims ]
    | x :: rest ->
        place rest dims
        @ List.concat
            (List.mapi
               (fun d xs ->
                 List.init (List.length xs + 1) (fun pos ->
                     let xs' = List.filteri (fun i _ -> i < pos) xs @ [ x ]
                               @ List.filteri (fun i _ -> i >= pos) xs in
                     List.mapi (fun e ys -> if e = d then xs' else ys) dims)
                 |> List.concat_map (fun dims' -> place rest dims'))
               dims)
  in
  place axes (List.map (fun _ -> []) ns)
  |> List.map (fun dims -> List.combine dims ns)
  |> List.filter (ty_wf m)
  |> List.sort_uniq compare

let ranks m = List.init (mesh_size m) Fun.id

let step_moves m types t =
  let r = List.length t in
  let dims = List.init r Fun.id in
  List.concat_map (fun d -> List.map (fun (x, _) -> DynSlice (d, x)) m) dims
  @ List.map (fun d -> AllGather d) dims
  @ List.concat_map (fun s -> List.map (fun u -> AllToAll (s, u)) dims) dims
  @ List.filter_map
      (fun t' ->
        if t' <> t && local_shape m t' = local_shape m t then Some (AllPermute t') else None)
      types

let phase = function DynSlice _ -> 0 | AllToAll _ | AllPermute _ -> 1 | AllGather _ -> 2

(* Least busiest-rank traffic of any sequence of at most [depth] collectives
   from [s] to [t] on [m] whose local sizes stay within [bound] (with
   [~normal_form], only slices, then flat steps, then gathers), searching
   only below [limit] (exclusive); [None] if there is none.  Per type (and
   phase) it keeps the per-rank traffic vectors that no other one dominates. *)
let search m s t ~bound ~depth ~limit ~normal_form =
  let types = all_types m (List.map snd s) in
  let rs = ranks m in
  let busiest v = List.fold_left max 0 v in
  let dominated v w = List.for_all2 ( >= ) v w in
  let seen = Hashtbl.create 64 in
  let best = ref None in
  let consider key v =
    let labels = Option.value ~default:[] (Hashtbl.find_opt seen key) in
    if List.exists (fun w -> dominated v w) labels then false
    else (
      Hashtbl.replace seen key (v :: List.filter (fun w -> not (dominated w v)) labels);
      true)
  in
  let cap () = match !best with Some b -> min b limit | None -> limit in
  let rec layer k frontier =
    List.iter (fun (ty, _, v) -> if ty = t then best := Some (min (busiest v) (cap ()))) frontier;
    if k < depth then begin
      let next =
        List.concat_map
          (fun (ty, ph, v) ->
            List.filter_map
              (fun step ->
                let ph' = if normal_form then phase step else 0 in
                if ph' < ph then None
                else
                  match step_type m ty step with
                  | Error _ -> None
                  | OK ty' ->
                      if local_size m ty' > bound then None
                      else
                        let v' = List.map2 (fun acc r -> acc + recv_count m ty step r) v rs in
                        if busiest v' >= cap () || not (consider (ty', ph') v') then None
                        else Some (ty', ph', v'))
              (step_moves m types ty))
          frontier
      in
      layer (k + 1) next
    end
  in
  let v0 = List.map (fun _ -> 0) rs in
  ignore (consider (s, 0) v0);
  layer 0 [ (s, 0, v0) ];
  !best

let tiny_meshes =
  [ [ (0, 2) ]; [ (0, 3) ]; [ (0, 4) ]; [ (0, 6) ]; [ (0, 8) ]; [ (0, 2); (1, 2) ];
    [ (0, 2); (1, 3) ]; [ (0, 3); (1, 2) ]; [ (0, 4); (1, 2) ]; [ (0, 2); (1, 4) ];
    [ (0, 1); (1, 6) ]; [ (0, 2); (1, 2); (1 + 1, 2) ] ]

(* Global shapes: one or two dimensions, extents that every layout divides. *)
let tiny_shapes m =
  let d = mesh_size m in
  [ [ d ]; [ 2 * d ]; [ d; d ] ]

(* How the planner's busiest-rank traffic compares with the best sequence. *)
type tally = { mutable optimal : int; mutable worst : float; mutable at : string }

let record tally pb c best =
  if c <= best then tally.optimal <- tally.optimal + 1
  else
    let ratio = if best = 0 then infinity else float_of_int c /. float_of_int best in
    if ratio > tally.worst then begin
      tally.worst <- ratio;
      tally.at <- Printf.sprintf " at %s (planner %d, best %d)" (pp_problem pb) c best
    end

let exhaustive () =
  let problems = ref 0 and missed = ref [] in
  let any = { optimal = 0; worst = 1.0; at = "" } and nf = { optimal = 0; worst = 1.0; at = "" } in
  List.iter
    (fun m ->
      List.iter
        (fun ns ->
          let types = all_types m ns in
          let step = max 1 (List.length types * List.length types / 150) in
          List.iteri
            (fun i s ->
              List.iteri
                (fun j t ->
                  if (i * List.length types + j) mod step = 0 then begin
                    incr problems;
                    let bound = max_size m s t in
                    let rf, p = planner m s t in
                    let m' = refine_mesh rf m in
                    let mine =
                      match check m' (refine_ty rf s) (refine_ty rf t) p with
                      | OK rep when rep.rp_peak <= bound && planner_in_normal_form m s t ->
                          Some (plan_traffic m' rep)
                      | _ -> None
                    in
                    (* the best sequence over every candidate refinement the
                       planner considers, unrefined included *)
                    let limit = match mine with Some c -> c + 1 | None -> max_int in
                    let best normal_form =
                      List.filter_map
                        (fun rf ->
                          search (refine_mesh rf m) (refine_ty rf s) (refine_ty rf t) ~bound
                            ~depth:4 ~limit ~normal_form)
                        (candidate_refinements m)
                    in
                    let found = best false in
                    match mine with
                    | None -> if found <> [] then missed := pp_problem (m, s, t) :: !missed
                    | Some c ->
                        let low l = List.fold_left min max_int l in
                        record any (m, s, t) c (low found);
                        record nf (m, s, t) c (low (best true))
                  end)
                types)
            types)
        (tiny_shapes m))
    tiny_meshes;
  Printf.printf
    "exhaustive: %d problems; the planner's busiest-rank traffic is the least of any \
     normal-form sequence (up to 4 steps) on %d, worst ratio %.2f%s; the least of any sequence \
     within max(|src|,|tgt|) on %d, worst ratio %.2f%s\n%!"
    !problems nf.optimal nf.worst nf.at any.optimal any.worst any.at;
  List.iteri (fun i b -> if i < 5 then print_endline ("no plan within the bound: " ^ b)) !missed;
  Alcotest.(check int) "problems where a sequence stays within the bound but the planner's does not"
    0 (List.length !missed)

let () =
  Tap.run "planner"
    [ ( "examples",
        [ Alcotest.test_case "sub-axis needed" `Quick needs_sub_axis;
          Alcotest.test_case "worked example" `Quick worked_example;
          Alcotest.test_case "whole-axis gather" `Quick whole_axis_gather;
          Alcotest.test_case "all_to_all needed" `Quick needs_all_to_all;
          Alcotest.test_case "identity" `Quick identity;
          Alcotest.test_case "large meshes" `Quick large_meshes ] );
      ("random", [ Alcotest.test_case "10000 problems" `Quick random_problems ]);
      ("exhaustive", [ Alcotest.test_case "tiny meshes" `Quick exhaustive ]) ]
