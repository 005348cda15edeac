package intent

import (
	"context"
	"testing"
)

// benchMessages mixes what reaches each tier: bare replies and clear
// questions for the rules, free-form orders and questions for the model,
// and out-of-scope chatter.
var benchMessages = []string{
	"ok",
	"👍",
	"haan theek hai",
	"rehne do",
	"namaste ji",
	"GC ka stock kitna hai?",
	"pending orders dikhao",
	"Rajesh ke liye 5 GC aur 10 phenyl bhej do, cash payment",
	"5 carton glass cleaner aur 10 pack phenyl for Rajesh, COD",
	"kya 50 carton harpic de sakte hain?",
	"kitna baaki hai Sharma pe",
	"last week ki sales ka chart bhejo",
	"Gupta Supermart ne is mahine kitna maal liya",
	"शर्मा जी को 4 कार्टन फिनाइल भेज दो",
	"kal subah 6 baje alarm laga do",
	"order pizza from dominos",
	"mummy ko call karo",
	"which customers have not paid yet",
}

func BenchmarkRoute(b *testing.B) {
	r := demoRouter(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r.Route(ctx, benchMessages[i%len(benchMessages)])
	}
}

func BenchmarkRouteParallel(b *testing.B) {
	r := demoRouter(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			r.Route(ctx, benchMessages[i%len(benchMessages)])
		}
	})
}

func BenchmarkNormalize(b *testing.B) {
	r := demoRouter(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r.Normalize(benchMessages[i%len(benchMessages)])
	}
}

// BenchmarkTrain is the start-up cost: cross-validation, temperature and
// the final model.
func BenchmarkTrain(b *testing.B) {
	for b.Loop() {
		if t := train(); t.err != nil {
			b.Fatal(t.err)
		}
	}
}
