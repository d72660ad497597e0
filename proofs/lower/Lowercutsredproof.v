(** * The reducing region messages of [Lowercutsred.v] are the reducing exchange's data movement.

    - [reduce_messages_match]: the boxes rank [r] sends to [p] have, in
      order, the extents of the boxes [p] receives from [r].
    - [region_reduce_contributors]: the contributions the messages bring to
      a position of a receiving target rank are, in the order of the
      source mesh's rank list, the values at its element of every member
      of one source group that holds it, each once
      ([Holdsum.cuts_group]).
    - [region_reduce_exchange_sound]: executing the messages
      ([region_reduce_run]) leaves every target group combining to its
      elements of the array (plain target: [pt = []]).

    The steps: a receive entry contributes to a position exactly when its
    sender holds the element ([cell_covers], [cell_moves]); the senders
    [rsends_to] admits among the holders are the receiver's own group, or
    the group of the first replica holding the element, whose first
    member ([group_first_rank]) is that replica ([lead_unique]). *)

From Coq Require Import List Arith Lia Bool.
Import ListNotations.
From Redist Require Import Model Radix Trafficproof Layout Layoutproof Exchange Sums Sumsproof Sumexchange.
From Redist Require Import Cuts Cutsproof Holding Holdsum Lowercuts Lowercutsproof Lowercutsred.

(** ** Groups, parts and leads *)

Lemma radix_mono : forall m c c' xs, (forall x, In x xs -> c x <= c' x) -> radix m c xs <= radix m c' xs.
Proof.
  intros m c c' xs. induction xs as [|x xs IH]; intros H; [unfold radix; simpl; lia |].
  rewrite !radix_cons. assert (c x <= c' x) by (apply H; left; reflexivity).
  assert (radix m c xs <= radix m c' xs) by (apply IH; intros y Hy; apply H; right; exact Hy). nia.
Qed.

Lemma same_parts_sym : forall m t c c', same_parts m t c c' = true -> same_parts m t c' c = true.
Proof.
  intros m t c c' H. unfold same_parts in *. rewrite forallb_forall in *. intros d Hd.
  specialize (H d Hd). rewrite forallb_forall in *. intros k Hk. specialize (H k Hk).
  apply Nat.eqb_eq in H. apply Nat.eqb_eq. symmetry. exact H.
Qed.

Lemma same_group_sym : forall m ps c c', same_group m ps c c' = true -> same_group m ps c' c = true.
Proof.
  intros m ps c c' H. unfold same_group in *. rewrite forallb_forall in *. intros a Ha.
  specialize (H a Ha). apply orb_true_iff in H. apply orb_true_iff.
  destruct H as [H | H]; [left; exact H | right; apply Nat.eqb_eq in H; apply Nat.eqb_eq; symmetry; exact H].
Qed.

Lemma same_group_parts : forall L ps c c', cpending_wf L ps = true -> same_group (cl_m L) ps c c' = true ->
  same_parts (cl_m L) (cl_ty L) c c' = true.
Proof.
  intros L ps c c' Hw Hg. unfold same_parts. apply forallb_forall. intros d Hd. apply forallb_forall.
  intros k Hk. apply Nat.eqb_eq. unfold cut_chunk. apply radix_ext. intros x Hx.
  apply (same_group_agrees L ps c c' Hw Hg). unfold cty_axes. apply in_flat_map. exists d.
  split; [exact Hd |]. apply in_flat_map. exists k. split; assumption.
Qed.

Lemma same_group_has : forall L ps c c' i, cpending_wf L ps = true -> same_group (cl_m L) ps c c' = true ->
  c_has (cl_m L) (cl_ty L) c i = c_has (cl_m L) (cl_ty L) c' i.
Proof. intros L ps c c' i Hw Hg. apply c_has_ext. apply (same_group_agrees L ps); assumption. Qed.

(** Two leads in the same parts of every cut are one. *)
Lemma lead_unique : forall S a b, is_lead S a = true -> is_lead S b = true ->
  same_parts (cl_m S) (cl_ty S) (device_of_rank (cl_m S) a) (device_of_rank (cl_m S) b) = true -> a = b.
Proof.
  intros S a b Ha Hb Hab. unfold is_lead in Ha, Hb. rewrite forallb_forall in Ha, Hb.
  destruct (Nat.lt_trichotomy a b) as [H | [H | H]]; [| exact H |].
  - specialize (Hb a ltac:(apply in_seq; lia)). rewrite Hab in Hb. discriminate.
  - specialize (Ha b ltac:(apply in_seq; lia)). rewrite (same_parts_sym _ _ _ _ Hab) in Ha. discriminate.
Qed.

(** The first member of a group: in the group, pending coordinates 0, no later than any member. *)
Lemma first_member : forall L ps c, cpending_wf L ps = true -> device_in (cl_m L) c ->
  group_first_rank (cl_m L) ps c < mesh_size (cl_m L)
  /\ same_group (cl_m L) ps c (device_of_rank (cl_m L) (group_first_rank (cl_m L) ps c)) = true
  /\ group_first_rank (cl_m L) ps c <= rank (cl_m L) c.
Proof.
  intros L ps c Hw Hc. destruct (cpending_parts L ps Hw) as (_ & Hm & _ & _ & Hps).
  set (z := fun a => if memb a ps then 0 else c a).
  assert (Hz : device_in (cl_m L) z).
  { intros x Hx. unfold z. destruct (memb x ps); [apply mesh_wf_size_pos; assumption | apply Hc, Hx]. }
  unfold group_first_rank. fold z. split; [apply rank_lt; assumption |]. split.
  - unfold same_group. apply forallb_forall. intros a Ha. destruct (memb a ps) eqn:E; [reflexivity |].
    simpl. rewrite device_of_rank_rank by assumption. unfold z. rewrite E. apply Nat.eqb_refl.
  - unfold rank. apply radix_mono. intros x _. unfold z. destruct (memb x ps); lia.
Qed.

Lemma flat_map_single_filter : forall A B (P : A -> bool) (f : A -> B) xs,
  flat_map (fun x => if P x then [f x] else []) xs = map f (filter P xs).
Proof. intros A B P f xs. induction xs as [|x xs IH]; simpl; [reflexivity |]. destruct (P x); simpl; rewrite IH; reflexivity. Qed.

Lemma flat_map_flat_map : forall A B C (f : B -> list C) (g : A -> list B) xs,
  flat_map f (flat_map g xs) = flat_map (fun x => flat_map f (g x)) xs.
Proof. intros A B C f g xs. induction xs as [|x xs IH]; simpl; [reflexivity |]. rewrite flat_map_app, IH. reflexivity. Qed.

Lemma flat_map_ext_all : forall A B (f g : A -> list B) xs, (forall x, f x = g x) -> flat_map f xs = flat_map g xs.
Proof. intros A B f g xs H. induction xs as [|x xs IH]; simpl; [reflexivity |]. rewrite H, IH. reflexivity. Qed.

(** The [k]-th box rank [r] sends to [p] has the extents of the [k]-th box [p] receives from [r]. *)
Theorem reduce_messages_match : forall S ps T pt fl r p, map snd (cl_ty S) = map snd (cl_ty T) ->
  map (map snd) (peer_boxes (reduce_sends S ps T pt fl r) p)
  = map (map snd) (peer_boxes (reduce_recvs S ps T pt fl p) r).
Proof.
  intros S ps T pt fl r p Hg. unfold reduce_sends, reduce_recvs. rewrite !peer_boxes_messages.
  unfold region_cells. destruct (cl_device S r) as [cs|] eqn:Hs; [| destruct (_ && _), (_ && _); reflexivity].
  destruct (cl_device T p) as [ct|] eqn:Ht; [| destruct (_ && _), (_ && _); reflexivity].
  rewrite (cl_device_memb _ _ _ Hs), (cl_device_memb _ _ _ Ht), !andb_true_r.
  destruct (rsends_to S ps T pt fl r p); [| reflexivity]. rewrite !map_map. apply map_ext_in. intros b Hb.
  destruct (cell_length S T cs ct b Hg Hb) as [H1 H2].
  unfold src_local, tgt_local. rewrite Hs, Ht, !localize_extents by lia. reflexivity.
Qed.

Section Sound.
Variables (S : clayout) (ps : list axis) (T : clayout) (pt : list axis) (fl : fill).
Hypothesis HwS : cpending_wf S ps = true.
Hypothesis HwT : cpending_wf T pt = true.
Hypothesis Hg : map snd (cl_ty S) = map snd (cl_ty T).

Lemma cl_device_mesh : forall w c, cl_device S w = Some c ->
  exists k, k < mesh_size (cl_m S) /\ c = device_of_rank (cl_m S) k.
Proof.
  intros w c H. destruct (cpending_parts S ps HwS) as (_ & _ & Hlen & _).
  destruct (cl_device_index S w c H) as (k & Hk & ->). apply index_of_Some in Hk. destruct Hk as [Hk _].
  exists k. rewrite <- Hlen. auto.
Qed.

(** The group of the first replica that holds [i]: a holder [s0], and the
    holders [rsends_to] admits when the receiver does not hold [i] are its members. *)
Lemma lead_group : forall i, Forall2 (fun x n => x < n) i (map snd (cl_ty S)) ->
  exists s0 c0, cl_device S s0 = Some c0 /\ c_has (cl_m S) (cl_ty S) c0 i = true
  /\ forall cs, device_in (cl_m S) cs -> c_has (cl_m S) (cl_ty S) cs i = true ->
     is_lead S (group_first_rank (cl_m S) ps cs) = same_group (cl_m S) ps c0 cs.
Proof.
  intros i Hr. destruct (cpending_parts S ps HwS) as (HS & Hm & Hlen & Hnd & _).
  pose proof (cover_rank_holds S i HS Hr) as Hcov. simpl in Hcov.
  destruct (cl_device S (cover_rank S i)) as [c1|] eqn:H1; [| discriminate].
  destruct (cl_device_mesh _ _ H1) as (k1 & Hk1 & ->).
  destruct (lead_exists S i k1 Hcov) as (k & Hkk & Hlead & Hhas).
  set (c0 := device_of_rank (cl_m S) k) in *.
  exists (nth k (pm_ranks (cl_mesh S)) 0), c0. split.
  { unfold cl_device. rewrite index_of_nth by (exact Hnd || lia). reflexivity. }
  split; [exact Hhas |]. intros cs Hcs Eh.
  destruct (first_member S ps cs HwS Hcs) as (Hz_lt & Hz_g & _).
  apply eq_iff_eq_true. split.
  - intros Hlz.
    assert (Hzh : c_has (cl_m S) (cl_ty S) (device_of_rank (cl_m S) (group_first_rank (cl_m S) ps cs)) i = true)
      by (rewrite <- (same_group_has S ps cs _ i HwS Hz_g); exact Eh).
    assert (E : group_first_rank (cl_m S) ps cs = k)
      by (apply (lead_unique S); [exact Hlz | exact Hlead | apply (has_same_parts _ _ _ _ i); assumption]).
    unfold c0. rewrite <- E. apply same_group_sym, Hz_g.
  - intros Hg0.
    assert (Egf : group_first_rank (cl_m S) ps cs = group_first_rank (cl_m S) ps c0).
    { unfold group_first_rank. apply rank_ext. intros a Ha. destruct (memb a ps) eqn:E; [reflexivity |].
      unfold same_group in Hg0. rewrite forallb_forall in Hg0. specialize (Hg0 a Ha). rewrite E in Hg0.
      symmetry. apply Nat.eqb_eq, Hg0. }
    assert (Hc0 : device_in (cl_m S) c0) by (apply device_of_rank_in; [exact Hm | lia]).
    destruct (first_member S ps c0 HwS Hc0) as (_ & Hz0_g & Hz0_le).
    assert (Hrk : rank (cl_m S) c0 = k) by (apply rank_device_of_rank; [exact Hm | lia]).
    rewrite Egf. replace (group_first_rank (cl_m S) ps c0) with k; [exact Hlead |].
    destruct (Nat.lt_ge_cases (group_first_rank (cl_m S) ps c0) k) as [Hlt | Hge]; [| lia].
    exfalso. unfold is_lead in Hlead. rewrite forallb_forall in Hlead.
    specialize (Hlead (group_first_rank (cl_m S) ps c0) ltac:(apply in_seq; lia)). fold c0 in Hlead.
    rewrite (same_parts_sym _ _ _ _ (same_group_parts S ps _ _ HwS Hz0_g)) in Hlead. discriminate.
Qed.

(** The ranks contributing to an element [i] of a receiving rank [r]'s
    target, in the order of the source mesh's rank list, are one group holding [i]. *)
Theorem region_reduce_contributors : forall r i, fill_receives fl (cuts_designated T pt) r = true ->
  Forall2 (fun x n => x < n) i (map snd (cl_ty S)) ->
  exists s0, hd_has (clayout_holding S) s0 i = true
  /\ (hd_has (clayout_holding S) r i = true -> s0 = r)
  /\ filter (fun p => rsends_to S ps T pt fl p r && hd_has (clayout_holding S) p i) (pm_ranks (cl_mesh S))
     = cuts_group S ps s0.
Proof.
  intros r i Hrecv Hr.
  assert (Hlead : forall c0, c_has (cl_m S) (cl_ty S) c0 i = true ->
    (forall cs, device_in (cl_m S) cs -> c_has (cl_m S) (cl_ty S) cs i = true ->
       match cl_device S r with
       | Some cr => if same_parts (cl_m S) (cl_ty S) cr cs then same_group (cl_m S) ps cr cs
                    else is_lead S (group_first_rank (cl_m S) ps cs)
       | None => is_lead S (group_first_rank (cl_m S) ps cs)
       end = same_group (cl_m S) ps c0 cs) ->
    filter (fun p => rsends_to S ps T pt fl p r && hd_has (clayout_holding S) p i) (pm_ranks (cl_mesh S))
    = filter (fun w => match cl_device S w with Some c' => same_group (cl_m S) ps c0 c' | None => false end)
             (pm_ranks (cl_mesh S))).
  { intros c0 Hc0 Hsel. apply filter_ext. intros p. unfold rsends_to. rewrite Hrecv. cbn [andb hd_has clayout_holding].
    destruct (cl_device S p) as [cs|] eqn:Hcs; [| reflexivity].
    destruct (cl_device_mesh _ _ Hcs) as (kp & Hkp & Ecs).
    assert (Hcs_in : device_in (cl_m S) cs)
      by (rewrite Ecs; apply device_of_rank_in; [apply (cpending_parts S ps HwS) | exact Hkp]).
    destruct (c_has (cl_m S) (cl_ty S) cs i) eqn:Eh.
    - rewrite andb_true_r. apply Hsel; assumption.
    - rewrite andb_false_r. symmetry. destruct (same_group (cl_m S) ps c0 cs) eqn:Eg; [| reflexivity].
      rewrite <- (same_group_has S ps c0 cs i HwS Eg), Hc0 in Eh. discriminate. }
  destruct (cl_device S r) as [cr|] eqn:Hcr.
  - destruct (c_has (cl_m S) (cl_ty S) cr i) eqn:Hown.
    + exists r. split; [cbn [hd_has clayout_holding]; rewrite Hcr; exact Hown |]. split; [reflexivity |].
      unfold cuts_group. rewrite Hcr. apply (Hlead cr Hown). intros cs _ Eh.
      destruct (same_group (cl_m S) ps cr cs) eqn:Eg.
      * rewrite (same_group_parts S ps cr cs HwS Eg). reflexivity.
      * destruct (same_parts (cl_m S) (cl_ty S) cr cs) eqn:Ep; [reflexivity |].
        rewrite (has_same_parts _ _ _ _ i Hown Eh) in Ep. discriminate.
    + destruct (lead_group i Hr) as (s0 & c0 & Hs0 & Hh0 & Hsel).
      exists s0. split; [cbn [hd_has clayout_holding]; rewrite Hs0; exact Hh0 |].
      split; [cbn [hd_has clayout_holding]; rewrite Hcr, Hown; discriminate |].
      unfold cuts_group. rewrite Hs0. apply (Hlead c0 Hh0). intros cs Hcs Eh.
      destruct (same_parts (cl_m S) (cl_ty S) cr cs) eqn:Ep; [| apply Hsel; assumption].
      rewrite (same_parts_has _ _ _ _ i Ep), Eh in Hown. discriminate.
  - destruct (lead_group i Hr) as (s0 & c0 & Hs0 & Hh0 & Hsel).
    exists s0. split; [cbn [hd_has clayout_holding]; rewrite Hs0; exact Hh0 |].
    split; [cbn [hd_has clayout_holding]; rewrite Hcr; discriminate |].
    unfold cuts_group. rewrite Hs0. apply (Hlead c0 Hh0). exact Hsel.
Qed.

(** A receive entry contributes to a position exactly when its sender holds
    the element, at the sender's local index of it. *)
Lemma contributions_filter : forall r ct l, cl_device T r = Some ct ->
  in_box (c_shape (cl_m T) (cl_ty T) ct) l ->
  let i := c_global (cl_m T) (cl_ty T) ct l in
  reduce_contributions (reduce_sends S ps T pt fl) r (reduce_recvs S ps T pt fl r) l
  = map (fun p => (p, hd_local (clayout_holding S) p i))
        (filter (fun p => rsends_to S ps T pt fl p r && hd_has (clayout_holding S) p i) (pm_ranks (cl_mesh S))).
Proof.
  intros r ct l Hct Hl i.
  destruct (cpending_parts S ps HwS) as (HS & _). destruct (cpending_parts T pt HwT) as (HT & _).
  pose proof (cl_device_in T r ct HT Hct) as Okt.
  destruct (c_global_has _ _ _ _ Okt Hl) as [HTi HTl]. fold i in HTi, HTl.
  rewrite <- flat_map_single_filter. unfold reduce_contributions, reduce_recvs.
  rewrite flat_map_flat_map. apply flat_map_ext_all. intros p.
  destruct (rsends_to S ps T pt fl p r) eqn:Hsend; [| reflexivity]. cbn [andb].
  assert (Hm : forall bs, flat_map (fun e => match find_box (snd e) l with
                     | Some k => [(fst e, shift (nth k (snd e) []) (nth k (peer_boxes (reduce_sends S ps T pt fl (fst e)) r) []) l)]
                     | None => [] end) (message p bs)
                = match find_box bs l with
                  | Some k => [(p, shift (nth k bs []) (nth k (peer_boxes (reduce_sends S ps T pt fl p) r) []) l)]
                  | None => [] end)
    by (intros [|b bs]; [reflexivity | cbn [message flat_map fst snd]; rewrite app_nil_r; reflexivity]).
  rewrite Hm. clear Hm.
  destruct (cl_device S p) as [cs|] eqn:Hcs.
  2: { unfold rsends_to in Hsend. rewrite Hcs, andb_false_r in Hsend. discriminate. }
  pose proof (cl_device_in S p cs HS Hcs) as Oks.
  assert (Ht : forall b, tgt_local T r b = localize (cl_m T) (cl_ty T) ct b)
    by (intros; unfold tgt_local; rewrite Hct; reflexivity).
  assert (Hsrc : forall b, src_local S p b = localize (cl_m S) (cl_ty S) cs b)
    by (intros; unfold src_local; rewrite Hcs; reflexivity).
  assert (Hpeer : peer_boxes (reduce_sends S ps T pt fl p) r
                  = map (localize (cl_m S) (cl_ty S) cs) (device_cells S T cs ct)).
  { unfold reduce_sends. rewrite peer_boxes_messages, Hsend, (cl_device_memb _ _ _ Hct). cbn [andb].
    unfold region_cells. rewrite Hcs, Hct. apply map_ext, Hsrc. }
  rewrite Hpeer. unfold region_cells. rewrite Hcs, Hct, (map_ext _ _ Ht).
  cbn [hd_has hd_local clayout_holding]. unfold device_or_self. rewrite Hcs.
  destruct (find_box (map (localize (cl_m T) (cl_ty T) ct) (device_cells S T cs ct)) l) as [k|] eqn:F.
  - destruct (find_box_some _ _ _ F) as [Hk Hin]. rewrite map_length in Hk.
    rewrite nth_map_localize in Hin |- *. rewrite nth_map_localize.
    destruct (cell_moves _ _ _ _ cs ct _ l Oks Okt Hg (nth_In _ [] Hk) Hin) as [H1 H2].
    fold i in H1, H2. rewrite H1. f_equal. f_equal. exact H2.
  - destruct (c_has (cl_m S) (cl_ty S) cs i) eqn:Eh; [| reflexivity]. exfalso.
    destruct (cell_covers _ _ _ _ cs ct i Oks Okt Hg Eh HTi) as (b & Hb & Hin). rewrite HTl in Hin.
    assert (Hb' : In (localize (cl_m T) (cl_ty T) ct b) (map (localize (cl_m T) (cl_ty T) ct) (device_cells S T cs ct)))
      by (apply in_map; exact Hb).
    rewrite (find_box_none _ _ _ F Hb') in Hin. discriminate.
Qed.

End Sound.

(** Executing the reducing region messages leaves every target group
    combining to its elements of the array. *)
Theorem region_reduce_exchange_sound : forall M S ps T pt fl g (st : state (carrier M)),
  cpending_wf S ps = true -> cpending_wf T pt = true -> map snd (cl_ty S) = map snd (cl_ty T) ->
  (fl = KeepAll -> idempotent M) ->
  hd_sholds M (clayout_holding S) (cuts_group S ps) g st ->
  hd_sholds M (clayout_holding T) (cuts_group T pt) g (region_reduce_run M S ps T pt fl st).
Proof.
  intros M S ps T pt fl g st HwS HwT Hg Hid Hst.
  destruct (cpending_parts S ps HwS) as (HS & _). destruct (cpending_parts T pt HwT) as (HT & _).
  apply (fill_sholds M fl (cuts_designated T pt)); [apply cuts_group_laws, HwT | apply cuts_fill_laws; assumption |].
  intros r s l Hs Hl. cbn [hd_shape clayout_holding] in Hs.
  destruct (cl_device T r) as [ct|] eqn:Hct; [| discriminate]. injection Hs as <-.
  unfold region_reduce_run. destruct (fill_receives fl (cuts_designated T pt) r) eqn:Hrecv.
  - rewrite (contributions_filter S ps T pt fl HwS HwT Hg r ct l Hct Hl).
    set (i := c_global (cl_m T) (cl_ty T) ct l).
    assert (Hr : Forall2 (fun x n => x < n) i (map snd (cl_ty S))).
    { rewrite Hg. eapply c_has_range. apply (c_global_has _ _ _ _ (cl_device_in T r ct HT Hct) Hl). }
    destruct (region_reduce_contributors S ps T pt fl HwS r i Hrecv Hr) as (s0 & Hs0 & _ & Ef).
    rewrite Ef, map_map. cbn [fst snd hd_global clayout_holding]. unfold device_or_self. rewrite Hct. fold i.
    apply (group_value M (clayout_holding S) (cuts_group S ps) g st s0 i);
      [apply cuts_holding_laws, HS | apply cuts_group_laws, HwS | exact Hst | exact Hs0].
  - assert (E : reduce_recvs S ps T pt fl r = []).
    { unfold reduce_recvs, rsends_to. rewrite Hrecv. induction (pm_ranks (cl_mesh S)) as [|p ps' IH]; [reflexivity | exact IH]. }
    rewrite E. reflexivity.
Qed.

(** Counted from the messages, a receiving target rank receives, per
    position of its target array, the contributions of the other members
    of the group that supplies it: [group_size - 1] where its source holds
    the element, [group_size] where it does not (what
    [Holdsum.cuts_reduce_exchange_recv] states for the exchange); a rank the
    fill does not designate receives nothing. *)
Theorem region_reduce_recv_exact : forall S ps T pt fl r s,
  cpending_wf S ps = true -> cpending_wf T pt = true -> map snd (cl_ty S) = map snd (cl_ty T) ->
  hd_shape (clayout_holding T) r = Some s ->
  region_reduce_received S ps T pt fl r
  = if fill_receives fl (cuts_designated T pt) r
    then (group_size (cl_m S) ps - 1) * prod s + length (hmissing (clayout_holding S) (clayout_holding T) r)
    else 0.
Proof.
  intros S ps T pt fl r s HwS HwT Hg Hs.
  destruct (cpending_parts S ps HwS) as (HS & Hm & _). destruct (cpending_parts T pt HwT) as (HT & _).
  unfold region_reduce_received, positions, hmissing. rewrite Hs.
  cbn [hd_shape clayout_holding] in Hs. destruct (cl_device T r) as [ct|] eqn:Hct; [| discriminate].
  injection Hs as <-.
  destruct (fill_receives fl (cuts_designated T pt) r) eqn:Hrecv.
  2: { assert (E : reduce_recvs S ps T pt fl r = []).
       { unfold reduce_recvs, rsends_to. rewrite Hrecv. induction (pm_ranks (cl_mesh S)) as [|p ps' IH]; [reflexivity | exact IH]. }
       rewrite E. induction (box_indices _) as [|l ls IH]; [reflexivity | exact IH]. }
  set (G := group_size (cl_m S) ps).
  rewrite (count_flat_map_less_one _ _ _ _ (fun l => hd_has (clayout_holding S) r (hd_global (clayout_holding T) r l)) G _
             (group_size_pos _ ps Hm)).
  - rewrite length_filter_map, length_box_indices. reflexivity.
  - intros l Hl. apply in_box_indices in Hl.
    rewrite (contributions_filter S ps T pt fl HwS HwT Hg r ct l Hct Hl).
    set (i := c_global (cl_m T) (cl_ty T) ct l).
    assert (Hgl : hd_global (clayout_holding T) r l = i)
      by (cbn [hd_global clayout_holding]; unfold device_or_self; rewrite Hct; reflexivity).
    rewrite Hgl.
    assert (Hr : Forall2 (fun x n => x < n) i (map snd (cl_ty S))).
    { rewrite Hg. eapply c_has_range. apply (c_global_has _ _ _ _ (cl_device_in T r ct HT Hct) Hl). }
    destruct (region_reduce_contributors S ps T pt fl HwS r i Hrecv Hr) as (s0 & Hs0 & Hself & Ef).
    rewrite Ef, length_filter_map. cbn [fst].
    assert (Hsz : length (cuts_group S ps s0) = G).
    { cbn [hd_has clayout_holding] in Hs0. destruct (cl_device S s0) as [c0|] eqn:Hc0; [| discriminate].
      apply (cuts_group_length S ps s0 c0 HwS Hc0). }
    destruct (hd_has (clayout_holding S) r i) eqn:Hri.
    + rewrite (Hself eq_refl) in *.
      destruct (proj2 (cuts_holding_laws S HS) r i Hri) as (sh & Hsh & _).
      destruct (cuts_group_laws S ps HwS r sh Hsh) as (Hnd & Hin & _).
      rewrite length_filter_other by assumption. rewrite Hsz. reflexivity.
    + rewrite (length_filter_const _ _ _ true); [exact Hsz |].
      intros w Hw. apply negb_true_iff, Nat.eqb_neq. intros ->.
      destruct (group_member_local (clayout_holding S) (cuts_group S ps) s0 r i
                  (cuts_holding_laws S HS) (cuts_group_laws S ps HwS) Hs0 Hw) as [E _].
      congruence.
Qed.
