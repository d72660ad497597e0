(** * avg over composed cuts: the reducing region messages with the sum, then one division.

    avg is no monoid of its own ([Reductions.avg_carrier]): the runtime
    runs the reducing region exchange of [Lowercutsred] with the sum
    ([av_monoid]), then divides every position of every receiving target
    rank once, by [cuts_avg_divisor S ps]: the size of the source's
    pending group, [group_size] of the source's pending axes.

    The exchange reduces every source axis, whatever the target keeps
    pending: each receiving position combines the values of all the
    members of one source group ([region_reduce_contributors]), so it
    holds the full group sum, and after the division its element of
    [avg_of n g].  So the divisor never depends on the target, unlike the
    collectives' [avg_divisor] (which reduces only the axes the target
    does not keep).

    - [region_reduce_receiver_value]: for any commutative monoid and
      either fill, a receiving target position ends with its element of
      the array (no idempotence needed: what [KeepAll] needs idempotence
      for is the meaning of a pending max/min target, not the values).
    - [region_reduce_avg_sound]: source avg{ps} to a plain target: every
      target rank holds its elements of [avg_of n g].
    - [region_reduce_avg_pending_sound]: source avg{ps} (or plain,
      [ps = []]) to a target pending avg over [pt], with the [KeepAll]
      fill: every member of every target group holds the averaged value,
      so each group averages back to it ([av_div_copies]); the target is
      avg-denoting [avg_of n g] ([cuts_aholds]).  [KeepOne] would not do:
      its non-designated members hold zero, and the group's average would
      be the value divided by the target group's size. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Layout Sums Sumsproof Sumexchange Reductions Reductionsproof.
From Redist Require Import Cuts Cutsproof Holding Holdsum Lowercuts Lowercutsproof Lowercutsred Lowercutsredproof.

(** What the runtime divides every received position by. *)
Definition cuts_avg_divisor (S : clayout) (ps : list axis) : nat := group_size (cl_m S) ps.

(** A receiving target position combines, with any fill, to its element of the array. *)
Theorem region_reduce_receiver_value : forall M S ps T pt fl g (st : state (carrier M)) r ct l,
  cpending_wf S ps = true -> cpending_wf T pt = true -> map snd (cl_ty S) = map snd (cl_ty T) ->
  hd_sholds M (clayout_holding S) (cuts_group S ps) g st ->
  cl_device T r = Some ct -> in_box (c_shape (cl_m T) (cl_ty T) ct) l ->
  fill_receives fl (cuts_designated T pt) r = true ->
  region_reduce_run M S ps T pt fl st r l = g (c_global (cl_m T) (cl_ty T) ct l).
Proof.
  intros M S ps T pt fl g st r ct l HwS HwT Hg Hst Hct Hl Hrecv.
  destruct (cpending_parts S ps HwS) as (HS & _). destruct (cpending_parts T pt HwT) as (HT & _).
  unfold region_reduce_run.
  rewrite (contributions_filter S ps T pt fl HwS HwT Hg r ct l Hct Hl).
  set (i := c_global (cl_m T) (cl_ty T) ct l).
  assert (Hr : Forall2 (fun x n => x < n) i (map snd (cl_ty S))).
  { rewrite Hg. eapply c_has_range. apply (c_global_has _ _ _ _ (cl_device_in T r ct HT Hct) Hl). }
  destruct (region_reduce_contributors S ps T pt fl HwS r i Hrecv Hr) as (s0 & Hs0 & _ & Ef).
  rewrite Ef, map_map. cbn [fst snd].
  apply (group_value M (clayout_holding S) (cuts_group S ps) g st s0 i);
    [apply cuts_holding_laws, HS | apply cuts_group_laws, HwS | exact Hst | exact Hs0].
Qed.

Section Avg.
Variable F : avg_carrier.
Notation M := (av_monoid F).
Notation A := (carrier (av_monoid F)).

(** [cuts_aholds L ps g st]: every rank's group over [ps] averages (sums,
    then divides once by the group's size) to its elements of [g]. *)
Definition cuts_aholds (L : clayout) (ps : list axis) (g : list nat -> A) (st : state A) : Prop :=
  hd_holds (clayout_holding L)  g
    (fun r l => av_div F (hd_pending_value M (cuts_group L ps) st r l) (group_size (cl_m L) ps)).

(** Every position of a rank the target places, divided once by [n]. *)
Definition divide_all (n : nat) (st : state A) : state A := fun r l => av_div F (st r l) n.

(** Contributions summing over each group to [g] are avg-denoting [avg_of F n g]. *)
Lemma cuts_sholds_aholds : forall L ps g (st : state A),
  hd_sholds M (clayout_holding L) (cuts_group L ps) g st ->
  cuts_aholds L ps (avg_of F (group_size (cl_m L) ps) g) st.
Proof. intros L ps g st Hst r s Hs l Hl. unfold avg_of. f_equal. apply (Hst r s Hs l Hl). Qed.

(** avg{ps} to a plain target (either fill: a plain target designates
    every rank it places): the reducing exchange with the sum, then one
    division by [cuts_avg_divisor], leaves every target rank with its
    elements of [avg_of n g]; the source is avg-denoting the same. *)
Theorem region_reduce_avg_sound : forall S ps T fl g (st : state A),
  cpending_wf S ps = true -> clayout_wf T = true -> map snd (cl_ty S) = map snd (cl_ty T) ->
  hd_sholds M (clayout_holding S) (cuts_group S ps) g st ->
  let n := cuts_avg_divisor S ps in
  cuts_aholds S ps (avg_of F n g) st
  /\ hd_holds (clayout_holding T) (avg_of F n g) (divide_all n (region_reduce_run M S ps T [] fl st)).
Proof.
  intros S ps T fl g st HwS HT Hg Hst n. split; [exact (cuts_sholds_aholds S ps g st Hst) |].
  assert (HwT : cpending_wf T [] = true)
    by (unfold cpending_wf; rewrite HT; reflexivity).
  intros r s Hs l Hl. cbn [hd_shape hd_global clayout_holding] in Hs |- *.
  destruct (cl_device T r) as [ct|] eqn:Hct; [| discriminate]. injection Hs as <-.
  unfold device_or_self. rewrite Hct. unfold divide_all, avg_of. f_equal.
  apply (region_reduce_receiver_value M S ps T [] fl g st r ct l HwS HwT Hg Hst Hct Hl).
  destruct fl; [| reflexivity]. cbn. unfold cuts_designated. rewrite Hct. reflexivity.
Qed.

Lemma msum_map_const : forall (v : A) (xs : list nat), msum M (map (fun _ => v) xs) = msum M (repeat v (length xs)).
Proof. intros v xs. induction xs as [|x xs IH]; [reflexivity |]. cbn [map repeat length]. rewrite !msum_cons, IH. reflexivity. Qed.

(** avg{ps} (or a plain source, [ps = []]) to a target pending avg over
    [pt], with the [KeepAll] fill: the reducing exchange with the sum,
    then one division of every position by [cuts_avg_divisor S ps] (the
    source's group size, whatever [pt] is), leaves every target group
    averaging to its elements of [avg_of n g]. *)
Theorem region_reduce_avg_pending_sound : forall S ps T pt g (st : state A),
  cpending_wf S ps = true -> cpending_wf T pt = true -> map snd (cl_ty S) = map snd (cl_ty T) ->
  hd_sholds M (clayout_holding S) (cuts_group S ps) g st ->
  let n := cuts_avg_divisor S ps in
  cuts_aholds S ps (avg_of F n g) st
  /\ cuts_aholds T pt (avg_of F n g) (divide_all n (region_reduce_run M S ps T pt KeepAll st)).
Proof.
  intros S ps T pt g st HwS HwT Hg Hst n. split; [exact (cuts_sholds_aholds S ps g st Hst) |].
  destruct (cpending_parts T pt HwT) as (HT & Hm & _).
  intros r s Hs l Hl. unfold hd_pending_value.
  destruct (cuts_group_laws T pt HwT r s Hs) as (_ & _ & Hmem).
  set (v := avg_of F n g (hd_global (clayout_holding T) r l)).
  rewrite (msum_ext_in M _ _ (fun _ => v)).
  - rewrite msum_map_const.
    cbn [hd_shape clayout_holding] in Hs. destruct (cl_device T r) as [ct|] eqn:Hct; [| discriminate].
    rewrite (cuts_group_length T pt r ct HwT Hct). apply av_div_copies, group_size_pos, Hm.
  - intros w Hw. destruct (Hmem w Hw) as [Hws Hwg]. unfold v. rewrite <- (Hwg l Hl).
    cbn [hd_shape hd_global clayout_holding] in Hws |- *.
    destruct (cl_device T w) as [cw|] eqn:Hcw; [| discriminate]. injection Hws as Hsw.
    unfold device_or_self. rewrite Hcw. unfold divide_all, avg_of. f_equal.
    apply (region_reduce_receiver_value M S ps T pt KeepAll g st w cw l HwS HwT Hg Hst Hcw); [| reflexivity].
    rewrite Hsw. exact Hl.
Qed.

End Avg.
