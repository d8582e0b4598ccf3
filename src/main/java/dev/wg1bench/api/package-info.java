/**
 * wg1bench's Java API: the whole public surface a user's code and tests may name. Everything else
 * under {@code dev.wg1bench} is the engine, which may change in any release; no public signature
 * here names one of its types ({@code ApiSurfaceTest} holds that), so a change in the engine never
 * breaks a user's source.
 *
 * <p>What is stable is said on each public type with apiguardian's {@link org.apiguardian.api.API}
 * annotation, as JUnit 5 says it of its own types; a member may say a level of its own. The levels
 * used here:
 *
 * <ul>
 *   <li>{@code STABLE}: kept compatible within a major version (0.x counts as one: a user's source
 *       that compiles against 0.1 compiles against every 0.x); a member goes only after a release
 *       that marked it {@code @Deprecated}. {@link dev.wg1bench.api.JdbcWorkload} and {@link
 *       dev.wg1bench.api.Op} (what a workload class implements and is given), {@link
 *       dev.wg1bench.api.Wg1bench}, {@link dev.wg1bench.api.Comparison}, {@link
 *       dev.wg1bench.api.Verdicts}, the enums and the exceptions.
 *   <li>{@code EXPERIMENTAL}: usable, but may change in any release, without a deprecation first.
 *       {@link dev.wg1bench.api.Trial} and {@link dev.wg1bench.api.StepFigures}: records whose
 *       components grow as the count of an op grows (round trips, statements, bytes), and a new
 *       component changes a record's constructor.
 *   <li>{@code DEPRECATED}, {@code MAINTAINED}, {@code INTERNAL}: not used yet; what is not public
 *       here is internal, and not annotated.
 * </ul>
 *
 * <p>An argument out of range is refused where it is given, by the method that takes it, as an
 * {@link dev.wg1bench.api.InvalidSettingException} naming the method and the value in the caller's
 * unit ({@code allowedFailureRate(1.5): a share between 0 and 1, got 1.5}).
 */
@API(status = STABLE, since = "0.1")
package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;
