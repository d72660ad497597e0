(* The inputs of the core's cost model ([Cost.v]): a machine profile read
   from a JSON file (docs/profiles/), the host of every world rank, and the
   memory budget.  This module only reads and checks them; the predictions
   and the choice are the core's [choose]. *)

module C = Redist_core

type t = {
  name : string;              (* the profile's "name", for printing *)
  profile : C.profile;
  hosts : C.hosts;
  hosts_text : string;        (* how the hosts were given, for printing *)
  budget : int option;        (* bytes per rank *)
  given : bool;               (* some of the settings came from the command line *)
  machine_given : bool;       (* --profile, --ranks-per-host or --hosts: what only the cost model reads *)
}

let schema = "redist-profile/1"

(* A profile is a few hundred bytes; a larger --profile is the wrong file. *)
let max_file_bytes = 1 lsl 20

(* Up to 1 s per message and 10^12 bytes per microsecond (1 PB/s): a
   message of 2^50 elements of 16 bytes then takes below 2^62 ns, the
   range of the core's integers. *)
let max_latency_ns = 1_000_000_000
let max_bytes_per_us = 1_000_000_000_000

let of_json ~what (j : Yojson.Safe.t) =
  let bad fmt = Printf.ksprintf (fun s -> Front.bad "%s: %s" what s) fmt in
  let fields = match j with `Assoc fs -> fs | _ -> bad "expected a JSON object" in
  let field obj path name =
    match List.assoc_opt name obj with Some v -> v | None -> bad "missing field %s%s" path name
  in
  let int_in obj path name lo hi =
    match field obj path name with
    | `Int n when n >= lo && n <= hi -> n
    | _ -> bad "%s%s must be an integer from %d to %d" path name lo hi
  in
  (match field fields "" "schema" with
   | `String s when s = schema -> ()
   | _ -> bad "schema must be \"%s\"" schema);
  let name = match field fields "" "name" with `String s -> s | _ -> bad "name must be a string" in
  let link_of key = function
    | `Assoc l ->
        { C.lk_latency_ns = int_in l (key ^ ".") "latency_ns" 0 max_latency_ns;
          lk_bytes_per_us = int_in l (key ^ ".") "bytes_per_us" 1 max_bytes_per_us }
    | _ -> bad "%s must be an object {latency_ns, bytes_per_us}" key
  in
  let link key = link_of key (field fields "" key) in
  (* Absent or null: the ranks of a host do not share redist's arrays, and
     every message is priced by MPI (profiles before the field). *)
  let single_copy =
    match List.assoc_opt "single_copy" fields with
    | None | Some `Null -> None
    | Some j -> Some (link_of "single_copy" j)
  in
  ( name,
    { C.pf_same_host = link "same_host"; pf_across_hosts = link "across_hosts";
      pf_copy_bytes_per_us = int_in fields "" "copy_bytes_per_us" 1 max_bytes_per_us; pf_single_copy = single_copy } )

let read ~what text = of_json ~what (Front.read_json ~what text)

(* docs/profiles/measured-here.json, measured on the development machine
   by `redist calibrate` and built into the binary: the profile when no
   --profile is given. *)
let default () = read ~what:"the built-in profile" Default_profile.json

(* The host of each of the [world] ranks: every [n] consecutive ranks, or
   one name per rank (names numbered by first appearance). *)
let hosts ~world ~ranks_per_host ~host_list =
  match (ranks_per_host, host_list) with
  | Some _, Some _ -> Front.bad "--ranks-per-host cannot be combined with --hosts (give one of them)"
  | Some n, None ->
      if n < 1 then Front.bad "--ranks-per-host: %d; give at least 1" n;
      (C.RanksPerHost n, Printf.sprintf "%d ranks per host" n)
  | None, None -> (C.RanksPerHost (max 1 world), "one host")
  | None, Some text ->
      let names = String.split_on_char ',' text |> List.map String.trim in
      List.iteri (fun i h -> if h = "" then Front.bad "--hosts: entry %d is empty" (i + 1)) names;
      let ids = Hashtbl.create 16 in
      let id h =
        match Hashtbl.find_opt ids h with
        | Some i -> i
        | None -> let i = Hashtbl.length ids in Hashtbl.add ids h i; i
      in
      let hs = List.map id names in
      (* Entries, not hosts: a host is named once per rank it holds. *)
      if List.length names <> world then
        Front.bad "--hosts: %d entries (naming %d distinct hosts) for %d world ranks; give one entry per world rank, in rank order, repeating a host's name for each of its ranks"
          (List.length names) (Hashtbl.length ids) world;
      (C.HostList hs, Report.plural (Hashtbl.length ids) "host")

(* BYTES, optionally with a binary suffix: 4096, 64KiB, 16MiB, 2GiB. *)
let budget_of_string text =
  let units = [ ("KiB", 1 lsl 10); ("MiB", 1 lsl 20); ("GiB", 1 lsl 30); ("TiB", 1 lsl 40) ] in
  let digits, scale =
    match List.find_opt (fun (u, _) -> String.ends_with ~suffix:u text) units with
    | Some (u, s) -> (String.sub text 0 (String.length text - String.length u), s)
    | None -> (text, 1)
  in
  match int_of_string_opt digits with
  | Some n when n >= 0 && String.for_all (fun c -> c >= '0' && c <= '9') digits && n <= max_int / scale ->
      n * scale
  | _ -> Front.bad "--memory-budget: %S is not a number of bytes (e.g. 4096, 64KiB, 16MiB, 2GiB)" text

(* [profile_file]: the --profile file's name and text. *)
let settings ~profile_file ~ranks_per_host ~host_list ~budget (p : Problem.t) =
  let name, profile =
    match profile_file with
    | None -> default ()
    | Some (file, text) -> read ~what:("--profile " ^ file) text
  in
  let hosts, hosts_text = hosts ~world:(Problem.world p) ~ranks_per_host ~host_list in
  let machine_given = profile_file <> None || ranks_per_host <> None || host_list <> None in
  { name; profile; hosts; hosts_text; budget = Option.map budget_of_string budget;
    given = machine_given || budget <> None; machine_given }
