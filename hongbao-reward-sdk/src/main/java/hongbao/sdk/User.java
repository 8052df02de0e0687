package hongbao.sdk;

/** Who receives a reward. */
public record User(String userId) {}
