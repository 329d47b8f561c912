// Straight-line arith and math, f64 and f32.
func.func @chain(%x: f64, %y: f64) -> f64 {
  %s = math.sin %x : f64
  %p = arith.mulf %s, %y : f64
  %e = math.exp %p : f64
  %xx = arith.mulf %x, %x : f64
  %one = arith.constant 1.0 : f64
  %q = arith.addf %xx, %one : f64
  %l = math.log %q : f64
  %d = arith.divf %l, %y : f64
  %r = arith.subf %e, %d : f64
  %t = math.tanh %r : f64
  %n = arith.negf %t : f64
  %sq = math.sqrt %q : f64
  %pw = math.powf %sq, %y : f64
  %out = arith.addf %n, %pw : f64
  func.return %out : f64
}

func.func @chain32(%x: f32, %y: f32) -> f32 {
  %c = math.cos %x : f32
  %m = arith.mulf %c, %y : f32
  %l = math.log1p %m : f32
  %two = arith.constant 2.0 : f32
  %yy = arith.mulf %y, %two : f32
  %mx = arith.maximumf %l, %yy : f32
  %e = math.exp %x : f32
  %r = arith.addf %mx, %e : f32
  func.return %r : f32
}

// Mixed precision and casts: y is widened, an integer scales the result.
func.func @mixed(%x: f64, %y: f32, %k: i32) -> f64 {
  %yd = arith.extf %y : f32 to f64
  %kd = arith.sitofp %k : i32 to f64
  %p = arith.mulf %x, %yd : f64
  %q = arith.mulf %p, %kd : f64
  %a = math.absf %q : f64
  %r = math.atan %a : f64
  func.return %r : f64
}
