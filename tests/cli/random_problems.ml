(* Prints random well-formed problems on meshes of at most 8 devices, one
   per line as "name|mesh|from|to|dtype|yes" for tests/cli/gen_cxx.sh, which
   generates, compiles and runs each under mpirun.  Source and target
   differ.  Fixed seed; the count is the first argument. *)

let seed = 7

let () =
  let count = if Array.length Sys.argv > 1 then int_of_string Sys.argv.(1) else 8 in
  let st = Random.State.make [| seed |] in
  let pick l = List.nth l (Random.State.int st (List.length l)) in
  let rec gcd a b = if b = 0 then a else gcd b (a mod b) in
  let lcm a b = a / gcd a b * b in
  let printed = ref 0 in
  while !printed < count do
    (* A mesh of 1 to 3 axes, at most 8 devices. *)
    let rec mesh acc prod n =
      if n = 0 then List.rev acc
      else
        let s = pick (List.filter (fun s -> prod * s <= 8) [ 1; 2; 3; 4 ]) in
        mesh ((Printf.sprintf "m%d" (List.length acc), s) :: acc) (prod * s) (n - 1)
    in
    let axes = mesh [] 1 (1 + Random.State.int st 3) in
    let rank = 1 + Random.State.int st 3 in
    (* Each axis goes to one dimension or stays unused, in random order. *)
    let assign () =
      let keyed = List.map (fun a -> (Random.State.bits st, a)) axes in
      let shuffled = List.map snd (List.sort compare keyed) in
      let dims = Array.make rank [] in
      List.iter
        (fun a ->
          let d = Random.State.int st (rank + 1) in
          if d < rank then dims.(d) <- dims.(d) @ [ a ])
        shuffled;
      dims
    in
    let src = assign () and tgt = assign () in
    let shards dims = List.fold_left (fun acc (_, s) -> acc * s) 1 dims in
    let extents = Array.init rank (fun d -> lcm (shards src.(d)) (shards tgt.(d)) * pick [ 1; 2; 3 ]) in
    let show dims =
      "["
      ^ String.concat ", "
          (List.init rank (fun d ->
               if dims.(d) = [] then string_of_int extents.(d)
               else Printf.sprintf "{%s}%d" (String.concat "," (List.map fst dims.(d))) extents.(d)))
      ^ "]"
    in
    let dtype = pick [ "f32"; "f64"; "i32"; "u8"; "bf16"; "i64"; "f16" ] in
    (* Equal types need no communication: skip them. *)
    if show src <> show tgt then begin
      Printf.printf "random%d|{%s}|%s|%s|%s|yes\n" !printed
        (String.concat ", " (List.map (fun (n, s) -> Printf.sprintf "%s:%d" n s) axes))
        (show src) (show tgt) dtype;
      incr printed
    end
  done
