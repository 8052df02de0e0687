package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class TokenVerifierTest {

  private static final Reward REWARD =
      new Reward("t1", "u1", "c1", "rain", "CASH", Amount.fen(120), "", Instant.EPOCH);

  /**
   * The reward is credited right after the verifier's first question: the row is written, then the
   * token copy dropped. Whichever it asks first, the answer must be LEGAL.
   */
  @Test
  void judge_ofARewardCreditedBetweenItsTwoQuestions_isLegal() {
    var credited = new AtomicBoolean();
    var firstQuestion = new AtomicBoolean(true);
    // Answers the state before the credit, then credits.
    Runnable afterAnswer =
        () -> {
          if (firstQuestion.getAndSet(false)) {
            credited.set(true);
          }
        };
    TokenStore copies =
        new TokenStore() {
          @Override
          public void save(Reward reward, String token) {}

          @Override
          public boolean holds(Reward reward) {
            boolean held = !credited.get();
            afterAnswer.run();
            return held;
          }

          @Override
          public void delete(Reward reward) {}

          @Override
          public List<String> pending(String userId, int max) {
            return List.of();
          }
        };
    RewardBook book =
        (RewardBook)
            Proxy.newProxyInstance(
                RewardBook.class.getClassLoader(),
                new Class<?>[] {RewardBook.class},
                (proxy, method, args) -> {
                  if (!method.getName().equals("find")) {
                    throw new AssertionError("unexpected " + method.getName());
                  }
                  Optional<RewardRecord> row =
                      credited.get()
                          ? Optional.of(
                              new RewardRecord(
                                  REWARD,
                                  REWARD.digest(),
                                  RewardKind.CASH,
                                  RewardRecord.Status.CREDITED,
                                  Instant.EPOCH,
                                  null))
                          : Optional.empty();
                  afterAnswer.run();
                  return row;
                });
    var verifier = new TokenVerifier(null, copies, book, RewardMetrics.NONE);

    TokenVerifier.Verification verdict = verifier.judge(REWARD);

    assertThat(verdict.validity()).isEqualTo(Validity.LEGAL);
    assertThat(verdict.credited()).isTrue();
  }
}
