%desc = type { ptr, i64 }
@td = constant %desc { ptr null, i64 mul (i64 ptrtoint (ptr getelementptr (i8, ptr null, i32 1) to i64), i64 6) }
