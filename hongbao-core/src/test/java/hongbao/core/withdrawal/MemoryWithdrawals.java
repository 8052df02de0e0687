package hongbao.core.withdrawal;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.IdempotencyRaceException;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The store and its books in memory, with the money: wallets, in-flight amounts and what went to
 * the gateway, moved exactly as the PostgreSQL adapter moves them.
 */
final class MemoryWithdrawals implements WithdrawalStore, WithdrawalBooks {

  final Map<String, Amount> wallets = new HashMap<>();
  final Map<Long, Amount> inFlight = new HashMap<>();
  final Map<Long, Amount> paid = new HashMap<>();
  final Map<Long, Amount> returned = new HashMap<>();
  private final Map<Long, Withdrawal> rows = new HashMap<>();
  private final Map<Long, Instant> nextCheck = new HashMap<>();
  private final Map<Long, List<Transition>> transitions = new HashMap<>();
  private final Map<String, StoredAnswer> answers = new HashMap<>();
  private final Set<String> keysUsed = new HashSet<>();
  private long sequence;

  synchronized void fund(String userId, long fen) {
    wallets.merge(userId, Amount.fen(fen), Amount::plus);
  }

  synchronized Amount wallet(String userId) {
    return wallets.getOrDefault(userId, Amount.ZERO);
  }

  synchronized Instant nextCheckOf(long id) {
    return nextCheck.get(id);
  }

  @Override
  public synchronized long nextId() {
    return ++sequence;
  }

  @Override
  public synchronized void request(
      Withdrawal withdrawal, Instant checkAt, IdempotencyKey key, StoredAnswer answer) {
    String scoped = key.userId() + "|" + key.endpoint() + "|" + key.key();
    if (answers.containsKey(scoped)) {
      throw new IdempotencyRaceException("taken");
    }
    if (keysUsed.contains(withdrawal.userId() + "|" + key.key())) {
      throw WithdrawalStore.keyUsedBefore();
    }
    Amount balance = wallet(withdrawal.userId());
    if (balance.compareTo(withdrawal.amount()) < 0) {
      throw new RejectedException(Rejection.INSUFFICIENT_FUNDS, "short");
    }
    answers.put(scoped, answer);
    keysUsed.add(withdrawal.userId() + "|" + key.key());
    wallets.put(withdrawal.userId(), balance.minus(withdrawal.amount()));
    inFlight.put(withdrawal.id(), withdrawal.amount());
    rows.put(withdrawal.id(), withdrawal);
    nextCheck.put(withdrawal.id(), checkAt);
    transitions
        .computeIfAbsent(withdrawal.id(), id -> new ArrayList<>())
        .add(new Transition(null, WithdrawalStatus.REQUESTED, "requested", withdrawal.createdAt()));
  }

  /** Forgets every stored answer, as their retention does; the withdrawals' keys stay. */
  synchronized void purgeAnswers() {
    answers.clear();
  }

  @Override
  public synchronized boolean keyUsed(String userId, String key) {
    return keysUsed.contains(userId + "|" + key);
  }

  @Override
  public synchronized Optional<StoredAnswer> answerFor(IdempotencyKey key) {
    return Optional.ofNullable(answers.get(key.userId() + "|" + key.endpoint() + "|" + key.key()));
  }

  @Override
  public synchronized Optional<Withdrawal> find(long id) {
    return Optional.ofNullable(rows.get(id));
  }

  @Override
  public synchronized Optional<Withdrawal> findByOutTradeNo(String outTradeNo) {
    return rows.values().stream().filter(w -> w.outTradeNo().equals(outTradeNo)).findFirst();
  }

  @Override
  public synchronized List<Transition> transitions(long id) {
    return List.copyOf(transitions.getOrDefault(id, List.of()));
  }

  @Override
  public synchronized List<Withdrawal> page(String userId, Long beforeId, int limit) {
    return rows.values().stream()
        .filter(w -> w.userId().equals(userId) && (beforeId == null || w.id() < beforeId))
        .sorted(Comparator.comparingLong(Withdrawal::id).reversed())
        .limit(limit)
        .toList();
  }

  @Override
  public synchronized Optional<Withdrawal> move(Move move) {
    Withdrawal w = rows.get(move.id());
    if (w == null
        || !move.from().contains(w.status())
        || (move.attemptsSeen() != Move.ANY_ATTEMPTS && move.attemptsSeen() != w.attempts())) {
      return Optional.empty();
    }
    Withdrawal moved =
        new Withdrawal(
            w.id(),
            w.userId(),
            w.amount(),
            w.outTradeNo(),
            move.to(),
            move.gatewayRef() != null ? move.gatewayRef() : w.gatewayRef(),
            move.cause(),
            w.attempts() + (move.attempt() ? 1 : 0),
            w.refusals(),
            w.checks(),
            w.createdAt(),
            move.at());
    rows.put(w.id(), moved);
    nextCheck.put(w.id(), move.nextCheckAt());
    transitions.get(w.id()).add(new Transition(w.status(), move.to(), move.cause(), move.at()));
    if (move.to() == WithdrawalStatus.SUCCEEDED) {
      paid.put(w.id(), inFlight.put(w.id(), Amount.ZERO));
    } else if (move.to() == WithdrawalStatus.FAILED) {
      Amount back = inFlight.put(w.id(), Amount.ZERO);
      returned.put(w.id(), back);
      wallets.merge(w.userId(), back, Amount::plus);
    }
    return Optional.of(moved);
  }

  @Override
  public synchronized Optional<Withdrawal> countRefusal(long id) {
    Withdrawal w = rows.get(id);
    if (w == null || w.status().settled()) {
      return Optional.empty();
    }
    Withdrawal counted = recounted(w, 1, 0);
    rows.put(id, counted);
    return Optional.of(counted);
  }

  /** {@code w} with {@code refusals} more refusals and {@code checks} more checks, as it stands. */
  private static Withdrawal recounted(Withdrawal w, int refusals, int checks) {
    return new Withdrawal(
        w.id(),
        w.userId(),
        w.amount(),
        w.outTradeNo(),
        w.status(),
        w.gatewayRef(),
        w.cause(),
        w.attempts(),
        w.refusals() + refusals,
        w.checks() + checks,
        w.createdAt(),
        w.updatedAt());
  }

  @Override
  public synchronized List<Withdrawal> claimDue(
      Instant now, int limit, Function<Withdrawal, Instant> next) {
    List<Withdrawal> due =
        rows.values().stream()
            .filter(w -> nextCheck.get(w.id()) != null && !nextCheck.get(w.id()).isAfter(now))
            .sorted(Comparator.comparing(w -> nextCheck.get(w.id())))
            .limit(limit)
            .toList();
    List<Withdrawal> claimed = new ArrayList<>();
    for (Withdrawal w : due) {
      nextCheck.put(w.id(), next.apply(w));
      rows.put(w.id(), recounted(w, 0, 1));
      claimed.add(w);
    }
    return claimed;
  }

  @Override
  public synchronized List<Booked> since(Instant since, int limit) {
    return rows.values().stream()
        .filter(w -> !w.createdAt().isBefore(since) || !w.updatedAt().isBefore(since))
        .sorted(Comparator.comparingLong(Withdrawal::id))
        .limit(limit)
        .map(this::booked)
        .toList();
  }

  @Override
  public synchronized List<Booked> unsettledBefore(Instant before, int limit) {
    return rows.values().stream()
        .filter(w -> !w.status().settled() && w.createdAt().isBefore(before))
        .sorted(Comparator.comparingLong(Withdrawal::id))
        .limit(limit)
        .map(this::booked)
        .toList();
  }

  @Override
  public synchronized Optional<Booked> byOutTradeNo(String outTradeNo) {
    return findByOutTradeNo(outTradeNo).map(this::booked);
  }

  private Booked booked(Withdrawal w) {
    return new Booked(
        w,
        w.amount(),
        paid.getOrDefault(w.id(), Amount.ZERO),
        returned.getOrDefault(w.id(), Amount.ZERO),
        inFlight.getOrDefault(w.id(), Amount.ZERO));
  }
}
