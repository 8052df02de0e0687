package hongbao.core.activity;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import java.time.Clock;
import java.util.Optional;

/** Creates activities and shows how many grabs each user has made in one. */
public final class ActivityService {

  public static final int MAX_NAME_LENGTH = 64;

  /** Bounded so that a user's entry in the fast store (a list of packet ids) stays small. */
  public static final int MAX_GRABS_PER_USER = 1_000;

  public static final int MAX_PAGE = 1_000;

  private final ActivityStore activities;
  private final ActivityCounts counts;
  private final Clock clock;

  public ActivityService(ActivityStore activities, ActivityCounts counts, Clock clock) {
    this.activities = activities;
    this.counts = counts;
    this.clock = clock;
  }

  /** Blocking: writes the ledger. */
  public Activity create(String name, long maxGrabsPerUser, String createdBy) {
    String trimmed = name == null ? "" : name.strip();
    if (trimmed.isEmpty() || trimmed.codePointCount(0, trimmed.length()) > MAX_NAME_LENGTH) {
      throw new RejectedException(
          Rejection.INVALID_REQUEST,
          "name must have 1 to %d characters".formatted(MAX_NAME_LENGTH));
    }
    if (maxGrabsPerUser < 1 || maxGrabsPerUser > MAX_GRABS_PER_USER) {
      throw new RejectedException(
          Rejection.INVALID_COUNT,
          "maxGrabsPerUser must be between 1 and %d".formatted(MAX_GRABS_PER_USER));
    }
    return activities.create(trimmed, (int) maxGrabsPerUser, createdBy, clock.instant());
  }

  public Optional<Activity> find(long activityId) {
    return activities.find(activityId);
  }

  /** The activity with a page of its users' counts; blocking. */
  public Optional<View> view(long activityId, String cursor, int limit) {
    return activities
        .find(activityId)
        .map(activity -> new View(activity, counts.page(activityId, cursor, limit)));
  }

  public record View(Activity activity, ActivityCounts.Page page) {}
}
