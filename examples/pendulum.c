/* A damped pendulum integrated with RK4; its final energy depends on the damping, the length
 * and the initial angle.  __enzyme_autodiff gives the gradient of that energy with respect to
 * all three in one call; the program prints it beside central finite differences. */
#include <math.h>
#include <stdio.h>

typedef struct { double d_damping, d_length, d_theta0; } Gradient;
extern Gradient __enzyme_autodiff(void *, ...);

static void rhs(double damping, double length, const double y[2], double dy[2]) {
  dy[0] = y[1];
  dy[1] = -9.81 / length * sin(y[0]) - damping * y[1];
}

double final_energy(double damping, double length, double theta0) {
  double y[2] = {theta0, 0.0}, k1[2], k2[2], k3[2], k4[2], t[2];
  const double h = 0.01;
  for (int step = 0; step < 1000; step++) {
    rhs(damping, length, y, k1);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k1[i];
    rhs(damping, length, t, k2);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k2[i];
    rhs(damping, length, t, k3);
    for (int i = 0; i < 2; i++) t[i] = y[i] + h * k3[i];
    rhs(damping, length, t, k4);
    for (int i = 0; i < 2; i++) y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  return 0.5 * length * length * y[1] * y[1] + 9.81 * length * (1 - cos(y[0]));
}

int main(void) {
  double p[3] = {0.3, 1.2, 0.8};
  const char *names[3] = {"damping", "length", "theta0"};
  Gradient g = __enzyme_autodiff((void *)final_energy, p[0], p[1], p[2]);
  double ad[3] = {g.d_damping, g.d_length, g.d_theta0};
  printf("E(damping=%.2f, length=%.2f, theta0=%.2f) = %.12f\n\n", p[0], p[1], p[2],
         final_energy(p[0], p[1], p[2]));
  printf("%-8s %22s %22s %10s\n", "dE/d", "xenzyme", "finite differences", "rel. diff");
  for (int i = 0; i < 3; i++) {
    double q[3] = {p[0], p[1], p[2]}, h = 1e-6;
    q[i] = p[i] + h;
    double up = final_energy(q[0], q[1], q[2]);
    q[i] = p[i] - h;
    double down = final_energy(q[0], q[1], q[2]);
    double fd = (up - down) / (2 * h);
    printf("%-8s %22.15f %22.15f %10.2e\n", names[i], ad[i], fd, fabs(ad[i] - fd) / fabs(fd));
  }
  return 0;
}
