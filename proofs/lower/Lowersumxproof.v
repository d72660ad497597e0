(** * The reducing exchange's lowering: data, staging, workspace, bytes alive.

    - [sumx_dst_exact]: on every element of every target box, what the
      lowered pieces make a rank add ([sumx_dst]) is the model's reducing
      exchange with the command's holder choice ([reducing_exchange_to],
      [spread_holder]).
    - [lower_sumx_correct]: so every target rank's pending group sums to
      its box of [g].
    - [sumx_staging_exact]: a designated rank's pieces cover its target
      box, lie inside it and each has [|G|] senders, so it fills [|G|]
      staging arrays of its box; the other ranks have no pieces and stage
      nothing.
    - [sumx_sends_spec]: a rank sends exactly the cells of the pieces of
      other ranks that list it.
    - [sumx_workspace_exact]: the header's workspace is the largest staging
      over the target mesh, and every world rank's staging fits in it.
    - [sumx_live_le]: the bytes alive on every world rank (source box,
      target box, staging) are at most [sumx_live_bytes], which is
      [(largest source box + (1 + |G|) * largest target box) * elem].
    - [lower_sumplan_correct]: either kind of plan [plan_sums] returns,
      lowered and run, leaves the target's pending sums in the destination
      and keeps the source. *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Buffers Model Semantics Checker Layout Exchange Strategy Sums Sumexchange Sumstrategy
  Lower Lowersums Lowersumx.
From Redist Require Import Radix Layoutproof Exchangeproof Strategyproof Sumsproof Sumstrategyproof
  Lowerproof Lowersumsproof.

Lemma sum_exchange_ok_parts : forall S ps T pt, sum_exchange_ok S ps T pt = true ->
  layouts_wf S T = true /\ pl_pending_wf S ps = true /\ pl_pending_wf T pt = true.
Proof.
  intros S ps T pt H. unfold sum_exchange_ok in H. rewrite !andb_true_iff in H. tauto.
Qed.

Lemma find_map : forall A B (f : B -> bool) (g : A -> B) xs,
  find f (map g xs) = option_map g (find (fun x => f (g x)) xs).
Proof.
  intros A B f g xs. induction xs as [|x xs IH]; simpl; [reflexivity |].
  destruct (f (g x)); [reflexivity | exact IH].
Qed.

(** The world rank of a member of a mesh, looked up in its layout, has the
    member's box. *)
Lemma pl_box_world_rank : forall L c, layout_wf L = true -> device_in (ly_m L) c ->
  pl_box L (world_rank (ly_mesh L) c) = Some (dev_box (ly_m L) (ly_ty L) c).
Proof.
  intros L c HL Hc. destruct (layout_parts L HL) as [Hm [Hlen [Hnd Htm]]].
  unfold pl_box, world_rank.
  rewrite index_of_nth by (auto; rewrite Hlen; apply rank_lt; assumption).
  f_equal. apply dev_box_ext. intros x Hx. apply device_of_rank_rank; auto.
Qed.

Lemma group_ranks_spec : forall S ps s, group_ranks S ps s =
  match index_of s (pm_ranks (ly_mesh S)) with
  | Some k => map (world_rank (ly_mesh S)) (group_members (ly_m S) ps (device_of_rank (ly_m S) k))
  | None => []
  end.
Proof. intros S ps s. unfold group_ranks. rewrite table_index_spec. reflexivity. Qed.

Lemma sumx_pieces_spec : forall S ps T pt r, sumx_pieces S ps T pt r =
  if designated T pt r
  then map (fun msg => {| xp_cell := snd msg; xp_senders := group_ranks S ps (fst msg) |}) (recv_messages S T r)
  else [].
Proof. reflexivity. Qed.

(** ** Data *)

Theorem sumx_dst_exact : forall elem S ps T pt M (st : state (carrier M)) r tb l,
  sum_exchange_ok S ps T pt = true -> pl_box T r = Some tb -> in_box (box_shape tb) l ->
  sumx_dst M (lower_sumx elem S ps T pt) st r l
  = reducing_exchange_to M S ps T pt (spread_holder S T) st r l.
Proof.
  intros elem S ps T pt M st r tb l Hok Hb Hl.
  destruct (sum_exchange_ok_parts S ps T pt Hok) as [Hwf [HwS _]].
  destruct (pl_pending_wf_parts S ps HwS) as [HL _].
  destruct (layout_parts S HL) as [Hm [Hlen _]].
  unfold sumx_dst, reducing_exchange_to, reducing_sources_to. cbn [sx_to sx_from sx_pieces lower_sumx].
  rewrite Hb, sumx_pieces_spec. destruct (designated T pt r); [| reflexivity].
  unfold reducing_sources. rewrite Hb. set (i := box_global tb l).
  destruct (recv_messages_exact S T r tb Hwf Hb) as [Hsent [Hcover _]].
  rewrite find_map. cbn [xp_cell].
  destruct (find (fun msg => box_has (snd msg) i) (recv_messages S T r)) as [[s c]|] eqn:Hf.
  - apply find_some in Hf. destruct Hf as [Hin Hc]. cbn [snd] in Hc.
    destruct (Hsent s c i Hin Hc) as [Htb Hs]. cbn [option_map xp_senders fst].
    rewrite <- Hs, group_ranks_spec.
    destruct (index_of (spread_holder S T r i) (pm_ranks (ly_mesh S))) as [k|] eqn:Hk; [| reflexivity].
    destruct (index_of_Some _ _ _ Hk) as [Hkl _].
    assert (Hc0 : device_in (ly_m S) (device_of_rank (ly_m S) k))
      by (apply device_of_rank_in; [exact Hm | rewrite <- Hlen; exact Hkl]).
    rewrite !map_map. apply msum_ext_in. intros c' Hc'. cbn [fst snd].
    unfold source_index. rewrite pl_box_world_rank; [reflexivity | exact HL |].
    apply (members_in _ _ _ _ _ Hc0 Hc').
  - exfalso. destruct (Hcover i (box_global_has tb l Hl)) as [s [c [Hin Hc]]].
    pose proof (find_none _ _ Hf (s, c) Hin) as Hn. cbn beta in Hn. cbn [snd] in Hn. congruence.
Qed.

(** Pending sums read a target state only on the target boxes. *)
Lemma pl_sholds_ext : forall M T pt g (st st' : state (carrier M)), pl_pending_wf T pt = true ->
  (forall r b l, pl_box T r = Some b -> in_box (box_shape b) l -> st r l = st' r l) ->
  pl_sholds M T pt g st -> pl_sholds M T pt g st'.
Proof.
  intros M T pt g st st' HwT Heq Hst w b Hb l Hl.
  rewrite <- (Hst w b Hb l Hl).
  destruct (pl_pending_wf_parts T pt HwT) as [HL Hpt].
  destruct (layout_parts T HL) as [Hm [Hlen [Hnd Htm]]].
  unfold pl_pending_value. unfold pl_box in Hb.
  destruct (index_of w (pm_ranks (ly_mesh T))) as [k|] eqn:Hk; [| discriminate].
  injection Hb as Hb. destruct (index_of_Some _ _ _ Hk) as [Hkl _].
  assert (Hc : device_in (ly_m T) (device_of_rank (ly_m T) k))
    by (apply device_of_rank_in; [exact Hm | rewrite <- Hlen; exact Hkl]).
  unfold group_sum. apply group_sum_in_group; [exact Hc |].
  intros c' Hc' Hgroup. symmetry. apply (Heq _ b); [| exact Hl].
  rewrite pl_box_world_rank by assumption. f_equal. rewrite <- Hb. apply dev_box_ext. intros x Hx.
  apply Hgroup. destruct (memb x pt) eqn:Hxp; [| reflexivity].
  exfalso. exact (Hpt x Hxp Hx).
Qed.

Theorem lower_sumx_correct : forall elem S ps T pt M (g : list nat -> carrier M) (st : state (carrier M)),
  sum_exchange_ok S ps T pt = true -> pl_sholds M S ps g st ->
  pl_sholds M T pt g (sumx_dst M (lower_sumx elem S ps T pt) st).
Proof.
  intros elem S ps T pt M g st Hok Hst.
  destruct (sum_exchange_ok_parts S ps T pt Hok) as [Hwf [HwS HwT]].
  apply (pl_sholds_ext M T pt g (reducing_exchange_to M S ps T pt (spread_holder S T) st)); [exact HwT | |].
  - intros r b l Hb Hl. symmetry. apply (sumx_dst_exact elem S ps T pt M st r b l Hok Hb Hl).
  - apply reducing_exchange_to_sound; [exact HwS | exact HwT | apply (spread_holder_ok S T Hwf) | exact Hst].
Qed.

(** ** Staging, sends, workspace *)

Theorem sumx_staging_exact : forall elem S ps T pt r,
  sum_exchange_ok S ps T pt = true ->
  (designated T pt r = false ->
     sumx_pieces S ps T pt r = [] /\ sumx_staging_bytes elem S ps T pt r = 0)
  /\ (forall tb, pl_box T r = Some tb -> designated T pt r = true ->
     sumx_array_bytes elem T r = box_size tb * elem
     /\ sumx_staging_bytes elem S ps T pt r = group_size (ly_m S) ps * sumx_array_bytes elem T r
     /\ (forall p i, In p (sumx_pieces S ps T pt r) -> box_has (xp_cell p) i = true ->
           box_has tb i = true /\ length (xp_senders p) = group_size (ly_m S) ps)
     /\ (forall i, box_has tb i = true ->
           exists p, In p (sumx_pieces S ps T pt r) /\ box_has (xp_cell p) i = true)).
Proof.
  intros elem S ps T pt r Hok.
  destruct (sum_exchange_ok_parts S ps T pt Hok) as [Hwf [HwS _]].
  split.
  - intros Hd. unfold sumx_staging_bytes. rewrite sumx_pieces_spec, Hd. split; reflexivity.
  - intros tb Hb Hd. destruct (recv_messages_exact S T r tb Hwf Hb) as [Hsent [Hcover _]].
    rewrite sumx_pieces_spec, Hd. split; [| split; [| split]].
    + unfold sumx_array_bytes, box_size_at. rewrite Hb. reflexivity.
    + unfold sumx_staging_bytes, sumx_array_bytes. rewrite Hd. symmetry. apply Nat.mul_assoc.
    + intros p i Hp Hi. apply in_map_iff in Hp. destruct Hp as [[s c] [<- Hin]]. cbn [xp_cell xp_senders fst snd] in *.
      destruct (Hsent s c i Hin Hi) as [Htb Hs]. split; [exact Htb |].
      pose proof (proj1 (spread_holder_ok S T Hwf) r tb i Hb Htb) as Hh.
      rewrite group_ranks_spec, <- Hs. unfold pl_box in Hh.
      destruct (index_of (spread_holder S T r i) (pm_ranks (ly_mesh S))); [| discriminate].
      rewrite map_length. unfold group_members. rewrite length_members. reflexivity.
    + intros i Hi. destruct (Hcover i Hi) as [s [c [Hin Hc]]].
      exists {| xp_cell := c; xp_senders := group_ranks S ps s |}. split; [| exact Hc].
      apply in_map_iff. exists (s, c). split; [reflexivity | exact Hin].
Qed.

Theorem sumx_sends_spec : forall S ps T pt s r c,
  In (r, c) (sumx_sends S ps T pt s)
  <-> In r (pm_ranks (ly_mesh T)) /\ r <> s
      /\ exists p, In p (sumx_pieces S ps T pt r) /\ xp_cell p = c /\ In s (xp_senders p).
Proof.
  intros S ps T pt s r c. unfold sumx_sends. rewrite in_flat_map. split.
  - intros [r' [Hr' Hin]]. destruct (Nat.eqb_spec r' s) as [_ | Hne]; [destruct Hin |].
    apply in_map_iff in Hin. destruct Hin as [p [E Hp]]. injection E as <- <-.
    apply filter_In in Hp. destruct Hp as [Hp Hs]. apply memb_In in Hs.
    split; [exact Hr' | split; [exact Hne |]]. exists p. auto.
  - intros [Hr [Hne [p [Hp [<- Hs]]]]]. exists r. split; [exact Hr |].
    destruct (Nat.eqb_spec r s) as [E | _]; [contradiction |].
    apply in_map_iff. exists p. split; [reflexivity |]. apply filter_In. split; [exact Hp |].
    apply memb_In. exact Hs.
Qed.

Lemma staging_outside : forall elem S ps T pt w, ~ In w (pm_ranks (ly_mesh T)) ->
  sumx_staging_bytes elem S ps T pt w = 0.
Proof.
  intros elem S ps T pt w Hw. unfold sumx_staging_bytes, box_size_at, pl_box.
  destruct (index_of w (pm_ranks (ly_mesh T))) as [k|] eqn:Hk.
  - exfalso. apply Hw. destruct (index_of_Some _ _ _ Hk) as [Hkl <-]. apply nth_In. exact Hkl.
  - rewrite Nat.mul_0_r. destruct (designated T pt w); reflexivity.
Qed.

(** The workspace the header asks for is the largest staging of a rank of
    the target mesh, and no world rank stages more. *)
Theorem sumx_workspace_exact : forall elem S ps T pt,
  sumx_workspace_bytes elem S ps T pt
  = list_max (map (sumx_staging_bytes elem S ps T pt) (pm_ranks (ly_mesh T)))
  /\ forall w, sumx_staging_bytes elem S ps T pt w <= sumx_workspace_bytes elem S ps T pt.
Proof.
  intros elem S ps T pt.
  assert (E : sumx_workspace_bytes elem S ps T pt
              = list_max (map (sumx_staging_bytes elem S ps T pt) (pm_ranks (ly_mesh T)))).
  { unfold sumx_workspace_bytes. f_equal. apply map_ext. intros r.
    unfold sumx_staging_bytes. rewrite receives_sum_spec, target_box_size_spec. reflexivity. }
  split; [exact E |]. intros w. rewrite E.
  destruct (in_dec Nat.eq_dec w (pm_ranks (ly_mesh T))) as [Hin | Hout].
  - apply in_list_max, in_map, Hin.
  - rewrite staging_outside by exact Hout. lia.
Qed.

(** ** Bytes alive *)

Theorem sumx_live_le : forall elem S ps T pt,
  sumx_live_bytes elem S ps T = (largest_box S + (1 + group_size (ly_m S) ps) * largest_box T) * elem
  /\ forall w, sumx_live elem S ps T pt w <= sumx_live_bytes elem S ps T.
Proof.
  intros elem S ps T pt. unfold sumx_live_bytes. rewrite largest_boxes_spec. cbn [fst snd].
  split; [reflexivity |]. intros w. unfold sumx_live.
  set (G := group_size (ly_m S) ps).
  assert (Hst : sumx_staging_bytes elem S ps T pt w <= G * box_bytes T elem w).
  { unfold sumx_staging_bytes, box_bytes, box_size_at. fold G.
    destruct (designated T pt w); destruct (pl_box T w); lia. }
  pose proof (box_bytes_le S elem w). pose proof (box_bytes_le T elem w).
  assert (G * box_bytes T elem w <= G * (largest_box T * elem)) by (apply Nat.mul_le_mono_l; assumption).
  nia.
Qed.

(** ** Either kind of pending-sum plan *)

Theorem lower_sumplan_correct : forall s S ps T pt sp elem fl, plan_sums s S ps T pt = Some sp ->
  forall M (g : list nat -> carrier M) (st other : state (carrier M)), fill_sound M fl -> pl_sholds M S ps g st ->
  let bs := run_sumplan M (lower_sumplan elem fl S ps T pt sp) st other in
  pl_sholds M T pt g (bs SDst) /\ bs SSrc = st.
Proof.
  intros s S ps T pt sp elem fl H M g st other Hfl Hst bs.
  destruct (plan_sums_checked s S ps T pt sp H) as [rep Hc]. unfold bs.
  destruct sp as [pre rf p post|]; cbn [lower_sumplan run_sumplan].
  - split.
    + apply (lower_sums_holds S ps T pt pre rf p post rep elem fl Hc M g st other Hfl Hst).
    + apply (proj2 (lower_sums_correct S ps T pt pre rf p post rep elem fl Hc M st other)).
  - cbn [scheck] in Hc. destruct (sum_exchange_ok S ps T pt) eqn:Hok; [| discriminate].
    split; [| reflexivity]. apply lower_sumx_correct; assumption.
Qed.
