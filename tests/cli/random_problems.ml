(* Prints random well-formed problems on meshes of at most 8 devices, one
   per line as "name|mesh|from|to|dtype|yes" for tests/cli/gen_cxx.sh, which
   generates, compiles and runs each under mpirun.  Source and target
   differ.  Fixed seed; the count is the first argument. *)

let seed = 7

let spec =
  { Random_problem.max_devices = 8; axis_sizes = [ 1; 2; 3; 4 ]; max_axes = 3; max_rank = 3;
    multipliers = [ 1; 2; 3 ]; max_global_elems = max_int;
    dtypes = List.map (fun (d : Dtype.t) -> d.name) Dtype.all }

let () =
  let count = if Array.length Sys.argv > 1 then int_of_string Sys.argv.(1) else 8 in
  let st = Random.State.make [| seed |] in
  for i = 0 to count - 1 do
    let p = Random_problem.draw spec st in
    Printf.printf "random%d|%s|%s|%s|%s|yes\n" i p.mesh p.src p.tgt p.dtype
  done
