(* Random meshes for the QCheck properties: [mesh ~max_axes ~names
   ~max_devices ~sizes] has 1 to [max_axes] axes named by distinct numbers
   drawn from 0 .. [names]-1 (neither dense nor ordered), each size drawn
   from [sizes] (repeats weight a size) among those that keep the device
   count within [max_devices]. *)
let mesh ~max_axes ~names ~max_devices ~sizes =
  let open QCheck.Gen in
  int_range 1 max_axes >>= fun n ->
  shuffle_l (List.init names Fun.id) >>= fun names ->
  let rec go i devices acc =
    if i = n then return (List.rev acc)
    else
      let fits = List.filter (fun s -> devices * s <= max_devices) sizes in
      oneofl fits >>= fun s -> go (i + 1) (devices * s) ((List.nth names i, s) :: acc)
  in
  go 0 1 []

(* [m] placed in a world of [prod m + spare] ranks: contiguous at a first rank
   in 0 .. [spare], or a permuted list of distinct ranks. *)
let placed ~spare (m : Redist_core.mesh) =
  let open QCheck.Gen in
  let p = List.fold_left ( * ) 1 (List.map snd m) in
  bool >>= fun contiguous ->
  if contiguous then int_range 0 spare >>= fun k -> return (Redist_core.placed_at m k)
  else
    shuffle_l (List.init (p + spare) Fun.id) >>= fun ranks ->
    return { Redist_core.pm_mesh = m; pm_ranks = List.filteri (fun i _ -> i < p) ranks }

(* The axes of each of [rank] dimensions: each mesh axis goes to one
   dimension or to none, in a random order. *)
let dims_axes (m : Redist_core.mesh) rank =
  let open QCheck.Gen in
  shuffle_l m >>= fun axes ->
  list_repeat (List.length axes) (int_range 0 rank) >>= fun where ->
  return
    (List.init rank (fun d ->
         List.concat (List.map2 (fun (x, _) w -> if w = d then [ x ] else []) axes where)))
